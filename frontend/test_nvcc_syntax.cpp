// Unit test of rewriteNvccSyntax: launches nvcc reads and clang does not are
// joined, keeping every line and column after them, and a braced grid or
// block is named ::dim3; a macro whose body is a #pragma gets _Pragma;
// everything else (literals, comments, operator<< <T>, nested templates,
// other directives) stays as written; a function's __shared__ libcu++
// barrier or pipeline state becomes storage and a reference.
#include "NvccSyntax.h"

#include <cstdio>
#include <string>

namespace {

int Passed = 0;
int Failed = 0;

void expectRewritten(const char *Name, const std::string &In,
                     const std::string &Want) {
  std::optional<std::string> Got = pasta::rewriteNvccSyntax(In);
  bool Ok = Got && *Got == Want;
  if (Ok) {
    ++Passed;
    return;
  }
  ++Failed;
  std::printf("FAIL %s: want \"%s\", got %s%s%s\n", Name, Want.c_str(),
              Got ? "\"" : "", Got ? Got->c_str() : "nothing", Got ? "\"" : "");
}

void expectUnchanged(const char *Name, const std::string &In) {
  std::optional<std::string> Got = pasta::rewriteNvccSyntax(In);
  if (!Got) {
    ++Passed;
    return;
  }
  ++Failed;
  std::printf("FAIL %s: \"%s\" became \"%s\"\n", Name, In.c_str(),
              Got->c_str());
}

void testLaunches() {
  expectRewritten("editor's spacing", "k << <g, b >> > (x);",
                  "k <<< g, b >>>  (x);");
  expectRewritten("opening only", "k<< <g, b>>>(x);", "k<<< g, b>>>(x);");
  expectRewritten("closing only", "k<<<g, b>> >(x);", "k<<<g, b>>> (x);");
  expectRewritten("spaced everywhere", "k< < <g, b> > >(x);",
                  "k<<<  g, b>>>  (x);");
  expectRewritten(
      "template kernel and call in the configuration",
      "k<T> << <dim3(n / 2, 1), std::max<int>(a, b), 0, s >> > (p);",
      "k<T> <<< dim3(n / 2, 1), std::max<int>(a, b), 0, s >>>  (p);");
  expectRewritten("comparison in the configuration",
                  "k << <n > 0 ? n : 1, 256 >> > (p);",
                  "k <<< n > 0 ? n : 1, 256 >>>  (p);");
  expectRewritten("two launches", "a << <1, 1 >> > ();\nb << <2, 2 >> > ();",
                  "a <<< 1, 1 >>>  ();\nb <<< 2, 2 >>>  ();");
  expectRewritten("across lines keeps the line count", "k <<\n<g, b>>\n>(x);",
                  "k <<<\ng, b>>>\n(x);");
  expectRewritten("after a string holding chevrons",
                  "puts(\"<< <\"); k << <1, 1 >> > ();",
                  "puts(\"<< <\"); k <<< 1, 1 >>>  ();");
  expectRewritten("after a digit separator",
                  "int n = 1'000; k << <n, 1 >> > ();",
                  "int n = 1'000; k <<< n, 1 >>>  ();");
  expectRewritten("in a macro body", "#define RUN(k) k << <1, 32 >> > ()\n",
                  "#define RUN(k) k <<< 1, 32 >>>  ()\n");
}

// A braced grid or block is named ::dim3; braces anywhere else stay.
void testBracedDims() {
  expectRewritten("braced block", "k<<<g, {32, 8, 1}, 0, s>>>(x);",
                  "k<<<g, ::dim3{32, 8, 1}, 0, s>>>(x);");
  expectRewritten("braced grid and block", "k<<<{2, 2},{32, 8}>>>(x);",
                  "k<<<::dim3{2, 2},::dim3{32, 8}>>>(x);");
  expectRewritten("braced block, spaced chevrons",
                  "k << <g, {n, 1, 1} >> > (x);",
                  "k <<< g, ::dim3{n, 1, 1} >>>  (x);");
  expectRewritten("across lines keeps the line count",
                  "k<<<g,\n    {bx, by,\n     1}>>>(x);",
                  "k<<<g,\n    ::dim3{bx, by,\n     1}>>>(x);");
  expectRewritten("comma inside the grid's call",
                  "k<<<grid(a, b), {f(1, 2), 1}>>>(x);",
                  "k<<<grid(a, b), ::dim3{f(1, 2), 1}>>>(x);");
  expectUnchanged("braces inside an argument", "k<<<f({1, 2}), b>>>(x);");
  expectUnchanged("braced stream left to clang", "k<<<g, b, 0, {}>>>(x);");
  expectUnchanged("braces after the launch", "k<<<g, b>>>(x); int a{1};");
  expectUnchanged("not a launch", "x << <a, {b} >> > y;");
}

// Joined launches keep the text's length: every column after them stays.
void testLengthKept() {
  const std::string In = "k << <g, b >> > (x); y = 1;";
  std::optional<std::string> Got = pasta::rewriteNvccSyntax(In);
  if (Got && Got->size() == In.size() &&
      Got->find("y = 1;") == In.find("y = 1;")) {
    ++Passed;
    return;
  }
  ++Failed;
  std::printf("FAIL joined launch changed the text's length\n");
}

void testPragmaMacros() {
  expectRewritten("pragma in an object-like macro",
                  "#define PRAGMA_UNROLL #pragma unroll\nint a;",
                  "#define PRAGMA_UNROLL _Pragma(\"unroll\")\nint a;");
  expectRewritten("pragma with an argument and a comment",
                  "  #  define UNROLL_4   #  pragma unroll 4 // four\n",
                  "  #  define UNROLL_4   _Pragma(\"unroll 4\")// four\n");
  expectRewritten("pragma text with quotes",
                  "#define MSG #pragma message(\"a\\\\b\")\n",
                  "#define MSG _Pragma(\"message(\\\"a\\\\\\\\b\\\")\")\n");
  // A splice becomes a space: "omp " + " " + " parallel".
  expectRewritten("continued with CR LF",
                  "#define U #pragma omp \\\r\n parallel for\r\nint x;",
                  "#define U _Pragma(\"omp   parallel for\")\\\n\nint x;");
  expectRewritten("continued after spaces",
                  "#define U #pragma omp \\  \n parallel\nint x;",
                  "#define U _Pragma(\"omp   parallel\")\\\n\nint x;");
  expectRewritten("comment marks inside the pragma's string",
                  "#define M #pragma message(\"see http://x\")\n",
                  "#define M _Pragma(\"message(\\\"see http://x\\\")\")\n");
  expectRewritten("continued line", "#define P #pragma \\\n  unroll\nint a;",
                  "#define P _Pragma(\"unroll\")\\\n\nint a;");
}

void testLeftAlone() {
  expectUnchanged("plain launch", "k<<<g, b>>>(x);");
  expectUnchanged("operator template", "operator<< <T>(os, v);");
  expectUnchanged("operator template, nested",
                  "operator<< <std::vector<std::pair<int, int>> >(os, v);");
  expectUnchanged("nested template", "A<B<C<D>> > a; f(a);");
  expectUnchanged("string", "printf(\"k << <g, b >> > (x)\");");
  expectUnchanged("raw string", "auto s = R\"x(k << <g >> > ())x\";");
  expectUnchanged("character literal", "char c = '<'; k(c);");
  expectUnchanged("line comment", "// k << <g, b >> > (x);\nint a;");
  expectUnchanged("block comment", "/* k << <g, b >> > (x); */ int a;");
  expectUnchanged("shift then less", "a = b << c < d;");
  expectUnchanged("no call after the closing chevrons", "x << <a, b >> > y;");
  expectUnchanged("statement ends first", "x << <a; b >> > (y);");
  expectUnchanged("shift-assign", "a <<= 2; b >>= 3;");
  expectUnchanged("unterminated", "k << <g, b");
  expectUnchanged("pragma directive", "#pragma unroll\nfor (;;) {}");
  expectUnchanged("function-like macro", "#define P(x) #x\n");
  expectUnchanged("macro of a string", "#define S \"#pragma once\"\n");
  expectUnchanged("pragma macro in a comment",
                  "/*\n#define P #pragma unroll\n*/");
  expectUnchanged("already an operator", "#define P _Pragma(\"unroll\")\n");
}

// A function's `__shared__` libcu++ barrier or pipeline state becomes
// storage and a reference of its name; other shared variables stay.
void testSharedSyncObjects() {
  const std::string Bar = "cuda::barrier<cuda::thread_scope_block>";
  expectRewritten("barrier", "  __shared__ " + Bar + " bar;\n  init(&bar, n);",
                  "  __shared__ __attribute__((aligned(alignof(" + Bar +
                      ")))) unsigned char __pasta_shared_bar[sizeof(" + Bar +
                      ")]; " + Bar + " (&bar) = *reinterpret_cast<" + Bar +
                      " (*)>(__pasta_shared_bar);\n  init(&bar, n);");
  expectRewritten("pipeline state over two lines, an array",
                  "__shared__ cuda::pipeline_shared_state<\n"
                  "    cuda::thread_scope_block, Stages> st[2] ;\nint a;",
                  "__shared__ __attribute__((aligned(alignof(cuda::pipeline_"
                  "shared_state< cuda::thread_scope_block, Stages>)))) "
                  "unsigned char __pasta_shared_st[sizeof(cuda::pipeline_"
                  "shared_state< cuda::thread_scope_block, Stages>[2])]; "
                  "cuda::pipeline_shared_state< cuda::thread_scope_block, "
                  "Stages> (&st)[2] = *reinterpret_cast<cuda::pipeline_"
                  "shared_state< cuda::thread_scope_block, Stages> (*)[2]>("
                  "__pasta_shared_st);\n\nint a;");
  expectRewritten("rooted std barrier after another shared variable",
                  "__shared__ int n; __shared__ ::cuda::std::barrier<S> b;",
                  "__shared__ int n; __shared__ __attribute__((aligned("
                  "alignof(::cuda::std::barrier<S>)))) unsigned char "
                  "__pasta_shared_b[sizeof(::cuda::std::barrier<S>)]; "
                  "::cuda::std::barrier<S> (&b) = *reinterpret_cast<::cuda::"
                  "std::barrier<S> (*)>(__pasta_shared_b);");
  expectUnchanged("extern", "extern __shared__ " + Bar + " bar;");
  expectUnchanged("two declarators", "__shared__ " + Bar + " a, b;");
  expectUnchanged("initialized", "__shared__ " + Bar + " a{};");
  expectUnchanged("other class", "__shared__ cuda::atomic<int> a;");
  expectUnchanged("a comment in the type",
                  "__shared__ cuda::barrier</* block */ S> a;");
  expectUnchanged("in a comment", "// __shared__ " + Bar + " bar;\n");
  expectUnchanged("part of a longer name", "my__shared__ " + Bar + " bar;");
}

} // namespace

int main() {
  testLaunches();
  testBracedDims();
  testLengthKept();
  testPragmaMacros();
  testLeftAlone();
  testSharedSyncObjects();
  std::printf("%d passed, %d failed\n", Passed, Failed);
  return Failed ? 1 : 0;
}
