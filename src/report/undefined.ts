/**
 * The warnings of the check of the operations outside a proof's scope
 * (src/verify/undefined.ts), as diagnostics (W0801 each, N0802 when not
 * decided): the text, JSON and SARIF reports all show these.
 */
import type { MachineType } from '../core/ast.js';
import { isSigned, WIDTH } from '../core/arith.js';
import type { UndefinedSite } from '../encode/query.js';
import { diagnosticOf, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { KernelResult, UndefinedReached } from '../verify/result.js';
import { idText, kernelHead, plural } from './describe.js';

const C_TYPE: Readonly<Record<MachineType, string>> = { i32: 'int', u32: 'unsigned', i64: 'long long', u64: 'unsigned long long' };

/** What may go wrong at the site: `signed \`*\` (int) may overflow`. */
export function undefinedHeadline(s: UndefinedSite): string {
  const type = C_TYPE[s.type];
  const wraps = isSigned(s.type) ? 'overflow' : 'wrap around';
  if (s.kind === 'step') return `the loop counter's step \`${s.op}\` (${type}) may ${wraps}`;
  switch (s.op) {
    case '+':
    case '-':
    case '*':
      return `${isSigned(s.type) ? 'signed' : 'unsigned'} \`${s.op}\` (${type}) may ${wraps}`;
    case '/':
    case '%':
      return `\`${s.op}\` (${type}) may divide by zero${isSigned(s.type) ? ' or overflow' : ''}`;
    case '<<':
      return `\`<<\` (${type}) may shift by a count out of range${isSigned(s.type) ? ' or overflow' : ''}`;
    case '>>':
      return `\`>>\` (${type}) may shift by a count out of range`;
    case '&':
    case '|':
    case '^':
      throw new Error(`internal error: \`${s.op}\` is always defined`);
  }
}

function hint(s: UndefinedSite): string {
  if (s.kind === 'step') return 'bound the loop so that its counter stays in range (a `__requires(…)` on its bounds); the warning goes once no launch the kernel allows makes it leave the range';
  switch (s.op) {
    case '/':
    case '%':
      return 'if the divisor is never 0 at the kernel\'s launches, say so with `__requires(…)` on the parameters it comes from';
    case '<<':
    case '>>':
      return `if the count is always in 0..${WIDTH[s.type] - 1} at the kernel's launches, say so with \`__requires(…)\` on the parameters it comes from`;
    default:
      return isSigned(s.type)
        ? 'if no launch makes it overflow, bound the parameters with `__requires(…)` (the warning goes once that is proved); or compute in `unsigned`, whose wrap-around is defined and modelled exactly'
        : 'if no launch makes it wrap around, bound the parameters with `__requires(…)` (the warning goes once that is proved)';
  }
}

/** The launch and thread the solver found: `thread 3 of block 0, n = 1073741824`. */
function exampleText(u: UndefinedReached): string {
  const params = [...u.parameters].map(([n, v]) => `${n} = ${v}`);
  return [`thread ${idText(u.thread.threadIdx, u.blockDim)} of block ${idText(u.thread.blockIdx, u.gridDim)}`, ...params].join(', ');
}

export function undefinedDiagnostics(r: KernelResult): Diagnostic[] {
  const found = r.undefinedOperations;
  if (found === undefined) return [];
  const out: Diagnostic[] = found.reachable.map((u) =>
    diagnosticOf('undefinedOperation', r.file, u.site.span, `${undefinedHeadline(u.site)} in kernel ${r.kernel}: ${u.why} (e.g. ${exampleText(u)}); the verdict holds only for the executions without it`, {
      label: undefinedHeadline(u.site),
      hints: [hint(u.site)],
    }),
  );
  if (found.undecided !== null) {
    const after = found.reachable.length === 0 ? '' : ` other than the ${plural(found.reachable.length, 'one')} above`;
    out.push(
      diagnosticOf('undefinedOperationUndecided', r.file, kernelHead(r.file, r.span), `kernel ${r.kernel}: not decided whether some launch reaches an operation outside the scope${after} undefined (query ${found.undecided.query}: ${found.undecided.reason})`),
    );
  }
  return out;
}
