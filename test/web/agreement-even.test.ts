import { agreementSuite } from './agreement.js';

agreementSuite('even');
