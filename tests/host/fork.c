/* A forked child starts counting from zero, and a parent and child that
 * share one output path both keep their profile (tests/run_host_fork.sh).
 * The parent calls work() 3 times, forks, waits for the child, then calls
 * it once more: its profile has work calls = 4. The child calls work()
 * twice and returns from main: its profile has work calls = 2 (main's own
 * call was counted before the fork, by the parent: calls = 0 in the
 * child). The child finishes first, so it writes the path; the parent
 * finds a profile written since it started and writes <stem>.1.json. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) void work(void) { sink = sink * 2.0; }

int main(void) {
  for (int i = 0; i < 3; ++i)
    work();
  pid_t pid = fork();
  if (pid < 0)
    return 1;
  if (pid == 0) {
    for (int i = 0; i < 2; ++i)
      work();
    return 0;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    printf("fork: FAILED (child)\n");
    return 1;
  }
  work();
  printf("fork: PASSED\n");
  return 0;
}
