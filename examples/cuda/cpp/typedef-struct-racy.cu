// expect: racy confirmed
// typedef-struct.cu where each thread copies its right neighbour's x:
// thread t reads p[t+1].x while thread t+1 writes it.
typedef struct {
  int x;
  int y;
} Point;
typedef enum { AXIS_X = 1, AXIS_Y = 2 } Axis;

__global__ void set_points(Point *p) {
  int t = threadIdx.x;
  p[t].x = AXIS_Y;
  p[t].y = p[t + 1].x;
}
