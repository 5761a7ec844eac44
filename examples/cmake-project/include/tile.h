#ifndef TILE_H
#define TILE_H
#ifndef BLOCK
#error "BLOCK is the build's compile definition: verify with --compile-commands build/compile_commands.json"
#endif
// the element of `data` a thread of a block of BLOCK threads owns
#define OWN(i) (blockIdx.x * BLOCK + (i))
#endif
