#ifndef ADLER_H
#define ADLER_H
unsigned long my_adler(const unsigned char *p, unsigned long n);
#endif
