// expect: drf
// Particles as a class with member functions: `p[i].advance(dt)` moves the
// particle in place (a member writing its own data members, so the writes
// are to p[i]'s fields), `kinetic()` is a const member reading them, and a
// local `Stats` object accumulates through a member function in a loop (the
// loop counts it as changed). Each thread touches only its own particle and
// its own slot of `energy`. Twin: particle-step-racy.cu.
struct Vec2 {
  float x, y;
  __device__ Vec2 operator*(float s) const { return {x * s, y * s}; }
  __device__ Vec2 &operator+=(const Vec2 &o) {
    x += o.x;
    y += o.y;
    return *this;
  }
  __device__ float dot(const Vec2 &o) const { return x * o.x + y * o.y; }
};

struct Particle {
  Vec2 pos;
  Vec2 vel;
  float mass;
  __device__ void advance(float dt) { pos += vel * dt; }
  __device__ float kinetic() const { return 0.5f * mass * vel.dot(vel); }
};

class Stats {
public:
  __device__ Stats() : sum_(0.0f), count_(0) {}
  __device__ void add(float v) {
    sum_ += v;
    ++count_;
  }
  __device__ float mean() const { return count_ > 0 ? sum_ / count_ : 0.0f; }

private:
  float sum_;
  unsigned count_;
};

__global__ void step(Particle *p, float *energy, int n, int substeps, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Stats stats;
  for (int s = 0; s < substeps; ++s) {
    p[i].advance(dt);
    stats.add(p[i].kinetic());
  }
  energy[i] = stats.mean();
}
