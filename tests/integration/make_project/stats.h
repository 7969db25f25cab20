#ifndef STATS_H
#define STATS_H

int is_prime(int n);
unsigned collatz_steps(unsigned n);

#endif
