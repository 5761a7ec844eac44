// expect: drf
// Array-of-structs particle update, two kernels: one clears the forces, one
// integrates velocities and positions field by field (p[i].vx, p[i].x, ...).
// Thread i touches only the fields of particle i in both kernels.
struct Particle {
    float x, y, z;
    float vx, vy, vz;
    float fx, fy, fz;
    float inv_mass;
};

__global__ void clear_forces(Particle *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].fx = 0.0f;
        p[i].fy = 0.0f;
        p[i].fz = 0.0f;
    }
}

__global__ void integrate(Particle *p, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = dt * p[i].inv_mass;
    p[i].vx += s * p[i].fx;
    p[i].vy += s * p[i].fy;
    p[i].vz += s * p[i].fz;
    p[i].x += dt * p[i].vx;
    p[i].y += dt * p[i].vy;
    p[i].z += dt * p[i].vz;
}
