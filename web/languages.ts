/**
 * Highlighting for the editor: BabyCUDA (the keywords and builtins of
 * grammar/babycuda.ohm) and CUDA C (C/C++ keywords, CUDA's qualifiers,
 * builtins and intrinsics, preprocessor lines). Tokenisers only: the verifier
 * reports what does not parse.
 */
import { StreamLanguage, type StreamParser, type StringStream } from '@codemirror/language';

interface Words {
  readonly keywords: ReadonlySet<string>;
  readonly types: ReadonlySet<string>;
  readonly builtins: ReadonlySet<string>;
  /** `#define` and friends, to the end of the line */
  readonly preprocessor: boolean;
}

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter((w) => w !== ''));

const BCU: Words = {
  keywords: words('kernel requires shared global skip let in if else for downto step sync syncwarp assume'),
  types: words(''),
  builtins: words('tid threadIdx blockIdx blockDim gridDim true false'),
  preprocessor: false,
};

const CUDA: Words = {
  keywords: words(`if else for while do return break continue switch case default goto sizeof typedef struct union enum class
    template typename namespace using static const volatile extern inline constexpr auto register restrict
    __global__ __device__ __host__ __shared__ __constant__ __restrict__ __forceinline__ __noinline__ __launch_bounds__
    __requires __assume __invariant __ensures __assert __global_invariant`),
  types: words(`void bool char short int long unsigned signed float double size_t half
    int2 int3 int4 uint2 uint3 uint4 float2 float3 float4 double2 dim3 uchar4`),
  builtins: words(`threadIdx blockIdx blockDim gridDim warpSize __syncthreads __syncwarp __threadfence true false nullptr
    atomicAdd atomicSub atomicExch atomicMin atomicMax atomicCAS __shfl_sync __shfl_down_sync __shfl_up_sync __shfl_xor_sync`),
  preprocessor: true,
};

interface State {
  inComment: boolean;
}

function parserOf(w: Words): StreamParser<State> {
  return {
    name: w.preprocessor ? 'cuda' : 'babycuda',
    startState: () => ({ inComment: false }),
    token(stream: StringStream, state: State): string | null {
      if (state.inComment) {
        state.inComment = !stream.skipTo('*/');
        if (state.inComment) stream.skipToEnd();
        else stream.match('*/');
        return 'comment';
      }
      if (stream.eatSpace()) return null;
      if (stream.match('//')) {
        stream.skipToEnd();
        return 'comment';
      }
      if (stream.match('/*')) {
        state.inComment = true;
        return this.token(stream, state);
      }
      if (w.preprocessor && stream.sol() && stream.match(/^\s*#\s*\w+/)) {
        stream.skipToEnd();
        return 'meta';
      }
      if (w.preprocessor && stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
      if (stream.match(/^(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)[uUlLfF]*/)) return 'number';
      const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
      if (word !== null && word !== true && word !== false) {
        const text = word[0];
        if (w.keywords.has(text)) return 'keyword';
        if (w.types.has(text)) return 'typeName';
        if (w.builtins.has(text)) return 'variableName.standard';
        return 'variableName';
      }
      if (stream.match(/^(?::=|\.\.|<<<|>>>|<<|>>|[<>=!]=|&&|\|\||[-+*/%<>=!&|^~?:])/)) return 'operator';
      stream.next();
      return null;
    },
    languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
  };
}

export const babyCuda = StreamLanguage.define(parserOf(BCU));
export const cudaC = StreamLanguage.define(parserOf(CUDA));

export type LanguageName = 'bcu' | 'cu';

/** The language a file name's extension names: `.cu` and `.cuh` are CUDA, anything else BabyCUDA. */
export function languageOfPath(path: string): LanguageName {
  return /\.cuh?$/.test(path) ? 'cu' : 'bcu';
}
