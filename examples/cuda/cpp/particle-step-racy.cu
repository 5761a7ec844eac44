// expect: racy confirmed
// particle-step.cu with a drag term taken from the next particle: before the
// loop, thread i adds a fraction of p[i + 1].vel to its own velocity through
// Vec2's member operators, while thread i + 1 writes p[i + 1].vel the same way.
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
  if (i + 1 < n) p[i].vel += p[i + 1].vel * 0.01f;
  Stats stats;
  for (int s = 0; s < substeps; ++s) {
    p[i].advance(dt);
    stats.add(p[i].kinetic());
  }
  energy[i] = stats.mean();
}
