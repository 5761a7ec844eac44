// expect: racy confirmed
// Each block fills the key arrays of 8 nodes in shared memory, thread t
// writing key t % 4 of node t / 4, then every thread
// copies its neighbour's key out. `s[i].keys[j]` is an element of an array
// field: each (node, key) pair is its own location, and `count` is another.
// Without the barrier, thread t reads key (t + 1) % 4 of its node while
// thread t + 1 (or t - 3) writes it. Race-free twin: node-keys.cu.
struct Node {
    int count;
    int keys[4];
};

__global__ void node_keys(const int *in, int *out)
{
    // the unsigned blockIdx.x * 32 wraps modulo 2^32 in grids of more than
    // 2^27 blocks, where blocks would write each other's out[] (a real race)
    __requires(gridDim.x <= 4294967296 / 32);
    __shared__ Node s[8];
    unsigned t = threadIdx.x;
    if (t < 32) {
        s[t / 4].keys[t % 4] = in[blockIdx.x * 32 + t];
        if (t % 4 == 0) s[t / 4].count = 4;
    }
    if (t < 32) out[blockIdx.x * 32 + t] = s[t / 4].keys[(t + 1) % 4];
}
