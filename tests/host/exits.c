/* Frames left without returning keep their counts: longjmp past two frames,
 * pthread_exit below a thread's function, and exit() two calls below main
 * (functions that ran but never returned were once listed as never run).
 *   main calls mid(i) for i = 0..999 under setjmp; mid calls leaf; leaf
 *   longjmps back to main for odd i (500 times), past mid.
 *   leaf:        calls 1000; its f64 multiply runs before the longjmp
 *                test on every call: flops.f64 = 1000.
 *   mid:         calls 1000; its multiply runs only when leaf returns: 500.
 *   thread_body: calls 1; it calls in_thread, which multiplies once
 *                (flops.f64 = 1) and calls pthread_exit.
 *   in_thread:   calls 1.
 *   run:         calls 1; it calls finish, which multiplies once and calls
 *                exit(): neither returns, nor does main.
 *   finish:      calls 1, flops.f64 = 1.
 *   main:        calls 1.
 * sink stays 0, so the multiplies never overflow. */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static volatile double sink;

__attribute__((noinline)) void leaf(int i) {
  sink = sink * 1.5;
  if (i & 1)
    longjmp(env, 1);
}

__attribute__((noinline)) void mid(int i) {
  leaf(i);
  sink = sink * 0.5;
}

__attribute__((noinline)) void in_thread(void) {
  sink = sink * 3.0;
  pthread_exit(NULL);
}

__attribute__((noinline)) void *thread_body(void *arg) {
  (void)arg;
  in_thread();
  return NULL;
}

__attribute__((noinline)) void finish(int status) {
  sink = sink * 4.0;
  exit(status);
}

__attribute__((noinline)) void run(int status) { finish(status); }

int main(void) {
  volatile int jumped = 0;
  for (volatile int i = 0; i < 1000; ++i)
    if (setjmp(env) == 0)
      mid(i);
    else
      jumped = jumped + 1;
  pthread_t t;
  if (pthread_create(&t, NULL, thread_body, NULL) != 0 ||
      pthread_join(t, NULL) != 0) {
    printf("exits: FAILED (thread)\n");
    return 1;
  }
  printf(jumped == 500 ? "exits: PASSED\n" : "exits: FAILED jumped=%d\n",
         jumped);
  fflush(stdout);
  run(jumped == 500 ? 0 : 1);
  return 1;
}
