/*===- markup.h - Text in HTML and SVG (XML) ------------------------------===*
 *
 * The one escaper of every page and picture PASTA writes: the HTML report
 * (analyzers/html), the roofline (analyzers/bandwidth) and the hotness map
 * (analyzers/working_set). Names, paths and titles come from the program
 * and from profile files, so they can hold anything.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_MARKUP_H
#define PASTA_PROFILE_MARKUP_H

#include <stdio.h>

/* `s` (NULL writes nothing) as text or a quoted attribute value of HTML or
 * XML: & < > " ' as &amp; &lt; &gt; &quot; &#39;, tabs and valid UTF-8 as
 * they are, and every other control character (C0, DEL), every byte that
 * is not valid UTF-8 and each byte of the code points XML 1.0 does not
 * allow (surrogates, U+FFFE, U+FFFF) as '?', so the file stays
 * well-formed. */
void pasta__markup_text(FILE *out, const char *s);

#endif
