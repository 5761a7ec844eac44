// Shared by the transpose examples: the tile's side, and the row-major index.
#ifndef TILE_CUH
#define TILE_CUH
#define TILE 16
#define AT(row, col, width) ((row) * (width) + (col))
#endif
