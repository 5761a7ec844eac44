import { describeAgreementOnSlice } from './agreement.js';

describeAgreementOnSlice(1, 4);
