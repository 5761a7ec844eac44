import { describeAgreementOnSlice } from './agreement.js';

describeAgreementOnSlice(2, 4);
