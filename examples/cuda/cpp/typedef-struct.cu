// expect: drf
// An array of typedef'd structs (`typedef struct { … } Point;`, and a
// typedef'd enum for the axis): each thread sets its own point's x and
// copies it to y, touching p[t].x and p[t].y only. Twin: typedef-struct-racy.cu.
typedef struct {
  int x;
  int y;
} Point;
typedef enum { AXIS_X = 1, AXIS_Y = 2 } Axis;

__global__ void set_points(Point *p) {
  int t = threadIdx.x;
  p[t].x = AXIS_Y;
  p[t].y = p[t].x;
}
