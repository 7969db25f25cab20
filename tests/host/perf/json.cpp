// A json-like, template-heavy workload (docs/performance.md, "Host-code
// counting"): a JSON value built of std::variant, std::vector, std::map and
// std::string, a recursive-descent parser templated on its input iterator,
// and a serializer; a generated document parsed and dumped again, rounds
// times. Many small calls, as in nlohmann/json.
// usage: json [records] [rounds]; exits 1 if a round trip differs.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace mini {

struct value;
using array = std::vector<value>;
using object = std::map<std::string, value>;

struct value {
  std::variant<std::nullptr_t, bool, double, std::string,
               std::unique_ptr<array>, std::unique_ptr<object>>
      v;
};

template <typename It> class parser {
public:
  parser(It first, It last) : p(first), end(last) {}

  bool parse(value &out) {
    skip();
    if (!parse_value(out))
      return false;
    skip();
    return p == end;
  }

private:
  It p, end;

  void skip() {
    while (p != end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
      ++p;
  }

  bool literal(const char *s) {
    for (; *s; ++s, ++p)
      if (p == end || *p != *s)
        return false;
    return true;
  }

  bool parse_string(std::string &s) {
    if (p == end || *p != '"')
      return false;
    ++p;
    while (p != end && *p != '"') {
      if (*p == '\\') {
        ++p;
        if (p == end)
          return false;
        char c = *p;
        s.push_back(c == 'n' ? '\n' : c == 't' ? '\t' : c);
      } else {
        s.push_back(*p);
      }
      ++p;
    }
    if (p == end)
      return false;
    ++p;
    return true;
  }

  bool parse_number(double &d) {
    std::string digits;
    while (p != end &&
           (std::isdigit(static_cast<unsigned char>(*p)) || *p == '-' ||
            *p == '+' || *p == '.' || *p == 'e' || *p == 'E'))
      digits.push_back(*p++);
    if (digits.empty())
      return false;
    d = std::strtod(digits.c_str(), nullptr);
    return true;
  }

  bool parse_array(value &out) {
    auto a = std::make_unique<array>();
    ++p;
    skip();
    if (p != end && *p == ']') {
      ++p;
      out.v = std::move(a);
      return true;
    }
    for (;;) {
      a->emplace_back();
      skip();
      if (!parse_value(a->back()))
        return false;
      skip();
      if (p != end && *p == ',') {
        ++p;
        continue;
      }
      if (p != end && *p == ']') {
        ++p;
        out.v = std::move(a);
        return true;
      }
      return false;
    }
  }

  bool parse_object(value &out) {
    auto o = std::make_unique<object>();
    ++p;
    skip();
    if (p != end && *p == '}') {
      ++p;
      out.v = std::move(o);
      return true;
    }
    for (;;) {
      std::string key;
      skip();
      if (!parse_string(key))
        return false;
      skip();
      if (p == end || *p != ':')
        return false;
      ++p;
      skip();
      value &slot = (*o)[std::move(key)];
      if (!parse_value(slot))
        return false;
      skip();
      if (p != end && *p == ',') {
        ++p;
        continue;
      }
      if (p != end && *p == '}') {
        ++p;
        out.v = std::move(o);
        return true;
      }
      return false;
    }
  }

  bool parse_value(value &out) {
    if (p == end)
      return false;
    switch (*p) {
    case '{':
      return parse_object(out);
    case '[':
      return parse_array(out);
    case '"': {
      std::string s;
      if (!parse_string(s))
        return false;
      out.v = std::move(s);
      return true;
    }
    case 't':
      out.v = true;
      return literal("true");
    case 'f':
      out.v = false;
      return literal("false");
    case 'n':
      out.v = nullptr;
      return literal("null");
    default: {
      double d;
      if (!parse_number(d))
        return false;
      out.v = d;
      return true;
    }
    }
  }
};

template <typename Out> void dump_string(const std::string &s, Out &out) {
  out.push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out.append("\\n");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

template <typename Out> void dump(const value &v, Out &out) {
  struct visitor {
    Out &out;
    void operator()(std::nullptr_t) { out.append("null"); }
    void operator()(bool b) { out.append(b ? "true" : "false"); }
    void operator()(double d) {
      char buf[32];
      int n = std::snprintf(buf, sizeof buf, "%.17g", d);
      out.append(buf, static_cast<size_t>(n));
    }
    void operator()(const std::string &s) { dump_string(s, out); }
    void operator()(const std::unique_ptr<array> &a) {
      out.push_back('[');
      bool first = true;
      for (const value &e : *a) {
        if (!first)
          out.push_back(',');
        first = false;
        dump(e, out);
      }
      out.push_back(']');
    }
    void operator()(const std::unique_ptr<object> &o) {
      out.push_back('{');
      bool first = true;
      for (const auto &kv : *o) {
        if (!first)
          out.push_back(',');
        first = false;
        dump_string(kv.first, out);
        out.push_back(':');
        dump(kv.second, out);
      }
      out.push_back('}');
    }
  };
  std::visit(visitor{out}, v.v);
}

} // namespace mini

// A document of `records` objects, each with strings, numbers, a nested
// array and object: what a log or an API response holds.
static std::string generate(unsigned records) {
  std::string s = "[";
  uint64_t x = 88172645463325252ull;
  for (unsigned i = 0; i < records; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%s{\"id\":%u,\"name\":\"user\\\"%u\",\"score\":%.3f,"
                  "\"active\":%s,\"tags\":[\"a\",\"b%u\",null],"
                  "\"pos\":{\"x\":%d,\"y\":%d}}",
                  i ? "," : "", i, (unsigned)(x % 1000),
                  (double)(x % 100000) / 7.0, x & 1 ? "true" : "false",
                  (unsigned)(x % 13), (int)(x % 640), (int)(x % 480));
    s += buf;
  }
  s += "]";
  return s;
}

int main(int argc, char **argv) {
  unsigned records =
      argc > 1 ? (unsigned)std::strtoul(argv[1], nullptr, 10) : 20000;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  std::string text = generate(records);
  size_t total = 0;
  for (int r = 0; r < rounds; ++r) {
    mini::value v;
    mini::parser<std::string::const_iterator> p(text.begin(), text.end());
    if (!p.parse(v)) {
      std::fprintf(stderr, "json: parse error in round %d\n", r);
      return 1;
    }
    std::string out;
    mini::dump(v, out);
    // Numbers are dumped with 17 digits: parse that again and compare.
    mini::value w;
    mini::parser<const char *> q(out.data(), out.data() + out.size());
    std::string again;
    if (!q.parse(w) || (mini::dump(w, again), again != out)) {
      std::fprintf(stderr, "json: round trip %d differs\n", r);
      return 1;
    }
    total += out.size();
  }
  std::printf("json: %u records, %zu bytes dumped\n", records, total);
  return 0;
}
