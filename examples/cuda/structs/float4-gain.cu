// expect: drf
// Applies a per-channel gain to RGBA pixels stored as float4: a whole-vector
// load, component updates on the local copy, a whole-vector store, then one
// more field store pixels[i].w. Thread i touches only pixels[i] (all fields).
__global__ void apply_gain(float4 *pixels, float4 gain, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 p = pixels[i];
        p.x *= gain.x;
        p.y *= gain.y;
        p.z *= gain.z;
        pixels[i] = p;
        pixels[i].w = 1.0f;
    }
}
