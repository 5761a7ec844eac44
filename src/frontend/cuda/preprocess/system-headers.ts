/**
 * The headers the CUDA front end knows without reading them: CUDA's runtime
 * and libraries, the C and C++ standard libraries, and the POSIX headers
 * kernels' files include for their host code. Their names (printf, sqrtf,
 * __syncthreads, the vector types…) are known to the front end itself
 * (builtins.ts); a name one of them would define that the front end does not
 * know is rejected at its use. So `#include "cuda_runtime.h"` not found in the
 * quoted search falls back to the system search, as in C, and is recorded,
 * not read. Any other missing quoted include is a project file (E0510): an
 * unread project header could define macros that change what the kernel
 * means, which no check downstream can see.
 */

/** C (C17) and C++ (C++17) standard headers, without and with their `.h`. */
const STANDARD = new Set(
  [
    'assert', 'complex', 'ctype', 'errno', 'fenv', 'float', 'inttypes', 'iso646', 'limits', 'locale', 'math', 'setjmp', 'signal',
    'stdalign', 'stdarg', 'stdatomic', 'stdbool', 'stddef', 'stdint', 'stdio', 'stdlib', 'stdnoreturn', 'string', 'tgmath',
    'threads', 'time', 'uchar', 'wchar', 'wctype', 'malloc', 'memory', 'unistd', 'fcntl', 'dirent', 'pthread', 'getopt', 'omp',
  ].map((n) => `${n}.h`),
);

const CPP_STANDARD = new Set([
  'algorithm', 'any', 'array', 'atomic', 'bitset', 'cassert', 'cctype', 'cerrno', 'cfenv', 'cfloat', 'charconv', 'chrono',
  'cinttypes', 'climits', 'clocale', 'cmath', 'complex', 'condition_variable', 'csetjmp', 'csignal', 'cstdarg', 'cstddef',
  'cstdint', 'cstdio', 'cstdlib', 'cstring', 'ctime', 'cuchar', 'cwchar', 'cwctype', 'deque', 'exception', 'execution',
  'filesystem', 'forward_list', 'fstream', 'functional', 'future', 'initializer_list', 'iomanip', 'ios', 'iosfwd', 'iostream',
  'istream', 'iterator', 'limits', 'list', 'locale', 'map', 'memory', 'memory_resource', 'mutex', 'new', 'numeric', 'optional',
  'ostream', 'queue', 'random', 'ratio', 'regex', 'scoped_allocator', 'set', 'shared_mutex', 'sstream', 'stack', 'stdexcept',
  'streambuf', 'string', 'string_view', 'system_error', 'thread', 'tuple', 'type_traits', 'typeindex', 'typeinfo',
  'unordered_map', 'unordered_set', 'utility', 'valarray', 'variant', 'vector',
]);

/** CUDA toolkit headers: the runtime and driver, their device-side parts, and the libraries. */
const CUDA = new Set(
  [
    'cuda', 'cuda_runtime', 'cuda_runtime_api', 'cuda_fp16', 'cuda_bf16', 'cuda_fp8', 'cuda_texture_types', 'cuda_surface_types',
    'cuda_profiler_api', 'cuda_gl_interop', 'cuda_occupancy', 'cuda_pipeline', 'cuda_awbarrier', 'cudaProfiler', 'cooperative_groups',
    'device_launch_parameters', 'device_functions', 'device_atomic_functions', 'device_double_functions', 'device_types',
    'driver_types', 'driver_functions', 'host_defines', 'host_config', 'builtin_types', 'vector_types', 'vector_functions',
    'texture_types', 'texture_fetch_functions', 'surface_types', 'math_constants', 'math_functions', 'sm_20_atomic_functions',
    'sm_32_intrinsics', 'sm_60_atomic_functions', 'mma', 'nvrtc', 'nvToolsExt', 'nvtx3/nvToolsExt', 'cublas', 'cublas_v2',
    'cublasLt', 'cufft', 'curand', 'curand_kernel', 'cusparse', 'cusolverDn', 'cudnn', 'nccl', 'nvml', 'cuComplex',
  ].map((n) => `${n}.h`),
);

/** Directories of the header-only libraries shipped with CUDA, and POSIX's `sys/`. */
const CUDA_PREFIXES = ['thrust/', 'cub/', 'cuda/', 'cooperative_groups/', 'nv/', 'sys/'];

/** Whether `name` (as written between the quotes or angle brackets) is a header the front end knows without reading it. */
export function isKnownSystemHeader(name: string): boolean {
  return STANDARD.has(name) || CPP_STANDARD.has(name) || CUDA.has(name) || CUDA_PREFIXES.some((p) => name.startsWith(p));
}
