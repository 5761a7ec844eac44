import { agreementSuite } from './agreement.js';

agreementSuite('odd');
