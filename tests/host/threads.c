/* Host counts stay exact when threads come and go: the main thread counts
 * alone first (plain adds while the process has one thread), then four
 * threads count at once (atomic adds), then the main thread alone again.
 * Expected (tests/CMakeLists.txt): step() called 1000 + 4 * 1000000 + 1000
 * times, worker() 4 times, each step one f64 add. */
#include <pthread.h>
#include <stdio.h>

enum { ALONE = 1000, THREADS = 4, EACH = 1000000 };

static pthread_barrier_t start; /* the workers count at the same time */

static volatile double sink;

__attribute__((noinline)) static void step(double x) { sink = sink + x; }

static void *worker(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  for (int i = 0; i < EACH; ++i)
    step(1.0);
  return NULL;
}

int main(void) {
  for (int i = 0; i < ALONE; ++i)
    step(1.0);
  pthread_t t[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  for (int i = 0; i < THREADS; ++i)
    if (pthread_create(&t[i], NULL, worker, NULL))
      return 1;
  for (int i = 0; i < THREADS; ++i)
    pthread_join(t[i], NULL);
  for (int i = 0; i < ALONE; ++i)
    step(1.0);
  printf("threads: done\n");
  return 0;
}
