import { describeAgreementOnSlice } from './agreement.js';

describeAgreementOnSlice(0, 4);
