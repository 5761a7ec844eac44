import { describeAgreementOnSlice } from './agreement.js';

describeAgreementOnSlice(3, 4);
