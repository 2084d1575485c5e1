//===- IR.cpp - irglc IR helpers -------------------------------------------===//

#include "irglc/IR/IR.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace irglc {

std::string SourceLoc::str() const { return display_file_name(file) + ":" + std::to_string(line); }

bool CodeFragment::holds(CodeSegment::Kind kind) const {
  return std::any_of(segments.begin(), segments.end(),
                     [&](const CodeSegment& segment) { return segment.kind == kind; });
}

CodeFragment CodeFragment::text(std::string code, SourceLoc loc) {
  CodeFragment fragment;
  fragment.segments.push_back({CodeSegment::Kind::text, std::move(code)});
  fragment.loc = std::move(loc);
  fragment.indent_column = loc.column;
  return fragment;
}

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

namespace {

struct ScheduleRow {
  ScheduleKind kind;
  const char* name;
  const char* policy;
  ScheduleArgument argument;
  const char* summary;
  // How the argument is written in --help: "NAME:N".
  const char* argument_help() const {
    switch (argument) {
      case ScheduleArgument::none: return "";
      case ScheduleArgument::group_size: return ":N";
      case ScheduleArgument::policy: return ":NAME";
    }
    return "";
  }
};
constexpr ScheduleRow kSchedules[] = {
#define IRGL_SCHEDULE(Id, Name, Policy, Argument, Summary) \
  {ScheduleKind::Id, Name, Policy, ScheduleArgument::Argument, Summary},
#include "irglc/IR/Schedules.def"
};

// "ext::Chunked", "Chunked": identifiers joined by "::", without a leading
// one (irglc writes the global "::" itself).
bool is_qualified_name(const std::string& text) {
  size_t start = 0;
  while (true) {
    const size_t end = text.find("::", start);
    const std::string part = text.substr(start, end == std::string::npos ? end : end - start);
    if (part.empty() || (part[0] >= '0' && part[0] <= '9')) return false;
    for (char c : part)
      if (!(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
        return false;
    if (end == std::string::npos) return true;
    start = end + 2;
  }
}

bool all_digits(const std::string& text, size_t max_length) {
  if (text.empty() || text.size() > max_length) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

// The parsers of Schedules.def's options.
std::string parse_alb_threshold(const std::string& value, Schedule& schedule) {
  if (!all_digits(value, 18)) return "threshold '" + value + "' is not a non-negative integer";
  schedule.alb_threshold = std::stoull(value);
  return "";
}
std::string parse_alb_distribution(const std::string& value, Schedule& schedule) {
  if (value == "cyclic") schedule.alb_distribution = AlbDistribution::cyclic;
  else if (value == "blocked") schedule.alb_distribution = AlbDistribution::blocked;
  else return "distribution '" + value + "' must be cyclic or blocked";
  return "";
}

std::string parse_item_search(const std::string& value, Schedule& schedule) {
  if (value == "auto") schedule.item_search = ItemSearch::automatic;
  else if (value == "binary") schedule.item_search = ItemSearch::binary;
  else if (value == "interpolation") schedule.item_search = ItemSearch::interpolation;
  else return "search '" + value + "' must be auto, binary or interpolation";
  return "";
}

struct ScheduleOptionRow {
  ScheduleKind kind;
  const char* key;
  std::string (*parse)(const std::string& value, Schedule& schedule);
  const char* summary;
};
constexpr ScheduleOptionRow kScheduleOptions[] = {
#define IRGL_SCHEDULE_OPTION(Id, Key, Parser, Summary) {ScheduleKind::Id, Key, Parser, Summary},
#include "irglc/IR/Schedules.def"
};

const ScheduleRow& row_of(ScheduleKind kind) {
  for (const ScheduleRow& row : kSchedules)
    if (row.kind == kind) return row;
  return kSchedules[0];
}

}  // namespace

std::string Schedule::name() const {
  const ScheduleRow& row = row_of(kind);
  switch (row.argument) {
    case ScheduleArgument::none: return row.name;
    case ScheduleArgument::group_size: return std::string(row.name) + ":" + std::to_string(group_size);
    case ScheduleArgument::policy: return std::string(row.name) + ":" + policy_name;
  }
  return row.name;
}

std::string schedule_names() {
  std::string names;
  for (const ScheduleRow& row : kSchedules) {
    if (!names.empty()) names += ", ";
    names += std::string(row.name) + row.argument_help();
  }
  return names;
}

std::string schedule_help() {
  std::string help;
  for (const ScheduleRow& row : kSchedules) {
    help += std::string("  ") + row.name + row.argument_help() + ": " + row.summary + "\n";
    for (const ScheduleOptionRow& option : kScheduleOptions)
      if (option.kind == row.kind)
        help += std::string("      ,") + option.key + "=VALUE: " + option.summary + "\n";
  }
  return help;
}

std::string schedule_policy(const Schedule& schedule, unsigned block_threads) {
  const ScheduleRow& row = row_of(schedule.kind);
  const std::string b = std::to_string(block_threads);
  switch (row.argument) {
    case ScheduleArgument::none: return "schedule::" + std::string(row.policy) + "<" + b + ">";
    case ScheduleArgument::group_size:
      return "schedule::" + std::string(row.policy) + "<" + b + ", " +
             std::to_string(schedule.group_size) + ">";
    case ScheduleArgument::policy: return "::" + schedule.policy_name + "<" + b + ">";
  }
  return "";
}

std::string parse_schedule_name(const std::string& text, Schedule& schedule) {
  const auto colon = text.find(':');
  const std::string base = text.substr(0, colon);
  for (const ScheduleRow& row : kSchedules) {
    if (base != row.name) continue;
    schedule = Schedule{};
    schedule.kind = row.kind;
    if (row.argument == ScheduleArgument::none) {
      if (colon != std::string::npos)
        return "schedule '" + base + "' takes no ':' argument";
      return "";
    }
    if (row.argument == ScheduleArgument::policy) {
      if (colon == std::string::npos)
        return "schedule '" + base + "' needs the name of a policy, e.g. " + base +
               ":ext::Chunked";
      schedule.policy_name = text.substr(colon + 1);
      if (!is_qualified_name(schedule.policy_name))
        return "'" + schedule.policy_name + "' is not a C++ name (letters, digits, _ and ::)";
      return "";
    }
    if (colon == std::string::npos)
      return "schedule '" + base + "' needs a group size, e.g. " + base + ":64";
    const std::string size = text.substr(colon + 1);
    const unsigned long value = all_digits(size, 5) ? std::stoul(size) : 0;
    if (value < 2 || value > 1024 || (value & (value - 1)) != 0)
      return "group size '" + size + "' must be a power of two from 2 to 1024";
    schedule.group_size = static_cast<unsigned>(value);
    return "";
  }
  return "unknown schedule '" + text + "' (expected one of: " + schedule_names() + ")";
}

std::string apply_schedule_option(const std::string& option, Schedule& schedule) {
  const auto equals = option.find('=');
  if (equals == std::string::npos) return "expected key=value, found '" + option + "'";
  const std::string key = option.substr(0, equals), value = option.substr(equals + 1);
  std::string keys;
  for (const ScheduleOptionRow& row : kScheduleOptions) {
    if (row.kind != schedule.kind) continue;
    if (key == row.key) return row.parse(value, schedule);
    keys += keys.empty() ? row.key : std::string(" or ") + row.key;
  }
  std::string owners;  // the schedules that take `key`
  unsigned owner_count = 0;
  for (const ScheduleOptionRow& row : kScheduleOptions)
    if (key == row.key) {
      owners += std::string(owners.empty() ? "'" : "' and '") + row_of(row.kind).name;
      ++owner_count;
    }
  if (owner_count)
    return "option '" + key + "' applies only to schedule" + (owner_count > 1 ? "s " : " ") +
           owners + "'";
  if (keys.empty()) return "schedule '" + schedule.name() + "' takes no options";
  return "unknown option '" + key + "' (expected " + keys + ")";
}

std::string parse_schedule_spec(const std::string& text, Schedule& schedule) {
  size_t comma = text.find(',');
  if (std::string problem = parse_schedule_name(text.substr(0, comma), schedule); !problem.empty())
    return problem;
  while (comma != std::string::npos) {
    const size_t next = text.find(',', comma + 1);
    const std::string option = text.substr(comma + 1, next == std::string::npos ? next : next - comma - 1);
    if (std::string problem = apply_schedule_option(option, schedule); !problem.empty())
      return problem;
    comma = next;
  }
  return "";
}

const char* to_string(AccumulatorOp op) {
  switch (op) {
    case AccumulatorOp::sum: return "sum";
    case AccumulatorOp::min: return "min";
    case AccumulatorOp::max: return "max";
    case AccumulatorOp::bit_or: return "or";
    case AccumulatorOp::bit_and: return "and";
  }
  return "?";
}

const char* to_string(FieldUpdate update) {
  switch (update) {
    case FieldUpdate::none: return "read";
    case FieldUpdate::assign: return "assign";
    case FieldUpdate::min: return "min";
    case FieldUpdate::max: return "max";
    case FieldUpdate::add: return "add";
    case FieldUpdate::claim: return "claim";
    case FieldUpdate::other: return "other";
  }
  return "?";
}

const char* to_string(ReductionOp op) {
  switch (op) {
    case ReductionOp::sum: return "sum";
    case ReductionOp::min: return "min";
    case ReductionOp::max: return "max";
  }
  return "?";
}

std::string ProgramParam::option_name() const {
  std::string option = "--";
  for (char c : var.name) option += c == '_' ? '-' : c;
  return option;
}

const Field* Module::find_field(const std::string& name) const {
  for (const auto& field : fields)
    if (field.name == name) return &field;
  return nullptr;
}

const Reduction* Module::find_reduction(const std::string& name) const {
  for (const auto& reduction : reductions)
    if (reduction.name == name) return &reduction;
  return nullptr;
}

const Kernel* Module::find_kernel(const std::string& name) const {
  for (const auto& kernel : kernels)
    if (kernel.name == name) return &kernel;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Rendering
//===----------------------------------------------------------------------===//

std::string render(const CodeFragment& fragment, const std::string& indent,
                   const std::string& next_vertex, const std::string& next_edge,
                   const std::string& run_argument) {
  std::string joined;
  for (const auto& segment : fragment.segments) {
    switch (segment.kind) {
      case CodeSegment::Kind::text: joined += segment.text; break;
      case CodeSegment::Kind::next_vertex: joined += next_vertex; break;
      case CodeSegment::Kind::next_edge: joined += next_edge; break;
      case CodeSegment::Kind::run_argument: joined += run_argument; break;
    }
  }
  // Continuation lines keep their indentation relative to the first line.
  const size_t strip = fragment.indent_column > 0 ? fragment.indent_column - 1 : 0;
  std::string out;
  size_t start = 0;
  bool first = true;
  while (start <= joined.size()) {
    size_t end = joined.find('\n', start);
    if (end == std::string::npos) end = joined.size();
    std::string line = joined.substr(start, end - start);
    if (!first) {
      size_t spaces = 0;
      while (spaces < strip && spaces < line.size() && line[spaces] == ' ') ++spaces;
      line.erase(0, spaces);
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (!line.empty()) out += indent + line;
    out += '\n';
    first = false;
    start = end + 1;
  }
  // Drop a trailing empty line produced by text ending in '\n'.
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
    out.pop_back();
  return out;
}

namespace {

class Dumper {
 public:
  explicit Dumper(std::ostringstream& out) : out_(out) {}

  void module(const Module& m) {
    out_ << "module " << display_file_name(m.source_file) << " program " << m.program_name << "\n";
    out_ << "graph-needs in-edges=" << (m.graph_needs.in_edges ? "yes" : "no")
         << " weights=" << weight_name(m.graph_needs.weights) << "\n";
    for (const auto& field : m.fields)
      out_ << (field.per_vertex ? "field " : "array ") << field.name << " : " << field.element_type
           << (field.zeroed_each_run ? "" : " not-zeroed") << "  ; " << field.loc.str() << "\n";
    for (const auto& r : m.reductions)
      out_ << "reduction " << r.name << " : " << to_string(r.op) << "<" << r.value_type
           << ">  ; " << r.loc.str() << "\n";
    for (const auto& decl : m.decls)
      out_ << (decl.is_function ? "helper-function" : "declaration") << "  ; "
           << decl.code.loc.str() << "\n";
    for (const auto& k : m.kernels) kernel(k);
    driver(m.driver);
  }

 private:
  static const char* weight_name(GraphNeeds::Weights w) {
    switch (w) {
      case GraphNeeds::Weights::none: return "none";
      case GraphNeeds::Weights::int32: return "int32";
      case GraphNeeds::Weights::float32: return "float32";
    }
    return "?";
  }

  static std::string list(const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ",") + item;
    return "[" + text + "]";
  }

  void code(const CodeFragment& fragment, const std::string& indent) {
    out_ << render(fragment, indent, "<next-vertex>", "<next-edge>");
  }

  void kernel(const Kernel& k) {
    out_ << "kernel " << k.name << (k.from_for_all_nodes ? " (for_all_nodes)" : "") << "  ; "
         << k.loc.str() << "\n";
    for (const auto& p : k.params) {
      const char* kind = p.kind == ParamKind::graph       ? "graph"
                         : p.kind == ParamKind::worklist  ? "worklist"
                         : p.kind == ParamKind::task_pool ? "task-pool"
                                                          : "scalar";
      out_ << "  param " << kind << " " << p.var.name << " : " << p.var.type << "\n";
    }
    out_ << "  fields " << list(k.fields_used) << " reductions " << list(k.reductions_used)
         << " pushes " << list(k.worklists_pushed) << "\n";
    if (!k.fields_written_whole.empty())
      out_ << "  writes-whole " << list(k.fields_written_whole) << "\n";
    if (k.pushes_chain) out_ << "  pushes-chain\n";
    for (const PartSync& sync : k.part_syncs)
      out_ << "  part-sync " << sync.field << " " << to_string(sync.op)
           << (sync.reduce ? " reduce" : "")
           << (sync.writes_at_out_edge_destinations ? " (not under iec)" : "")
           << (sync.broadcast ? " broadcast" : "") << (sync.copies_agree ? " copies-agree" : "")
           << "\n";
    for (const auto& fragment : k.prologue) {
      out_ << "  prologue\n";
      code(fragment, "    ");
    }
    const VertexLoop& loop = k.loop;
    if (loop.domain == VertexDomain::tasks)
      out_ << "  task-loop " << loop.vertex_var << " : " << loop.task_type << " over pool "
           << loop.pool;
    else
      out_ << "  vertex-loop " << loop.vertex_var << " over "
           << (loop.domain == VertexDomain::all_nodes ? "nodes(" + loop.graph + ")"
                                                      : "worklist " + loop.worklist);
    out_ << (loop.block_task() ? " (block task)" : "") << "  ; " << loop.loc.str() << "\n";
    for (const auto& v : loop.task_variables)
      out_ << "    task-variable " << v.member << "  ; " << v.loc.str() << "\n";
    for (const auto& step : loop.task_steps) {
      out_ << (step.kind == TaskStep::Kind::parallel ? "    parallel" : "    task-code");
      for (const auto& name : step.declares) out_ << " declares " << name;
      out_ << "  ; " << step.loc.str() << "\n";
      for (const auto& fragment : step.code) code(fragment, "      ");
    }
    for (const auto& step : loop.pre) {
      out_ << (step.kind == PreStep::Kind::guard ? "    guard\n" : "    pre\n");
      code(step.code, "      ");
    }
    if (loop.edge_loop) edge_loop(*loop.edge_loop);
    for (const auto& fragment : loop.post) {
      out_ << "    post\n";
      code(fragment, "      ");
    }
  }

  void edge_loop(const EdgeLoop& e) {
    out_ << "    edge-loop " << e.edge_var << " over "
         << (e.direction == EdgeDirection::out ? "out" : "in") << "-edges(" << e.vertex
         << ") schedule " << e.schedule.name();
    if (e.annotation) out_ << " (annotated " << e.annotation->name() << ")";
    out_ << "  ; " << e.loc.str() << "\n";
    for (const auto& v : e.closure) out_ << "      closure " << v.name << " : " << v.type << "\n";
    for (const auto& a : e.accumulators)
      out_ << "      accumulate " << a.var.name << " : " << a.var.type << " by "
           << to_string(a.op) << "\n";
    if (!e.reductions_used.empty()) out_ << "      reductions " << list(e.reductions_used) << "\n";
    if (!e.worklists_pushed.empty()) out_ << "      pushes " << list(e.worklists_pushed) << "\n";
    if (e.work_per_edge_varies) out_ << "      work per edge varies\n";
    if (e.settle)
      out_ << "      stops once " << render(*e.settle, "", "<next-vertex>", "<next-edge>") << "\n";
    if (e.schedule.alb_threshold) out_ << "      alb threshold " << *e.schedule.alb_threshold << "\n";
    for (const auto& fragment : e.body) {
      out_ << "      body\n";
      code(fragment, "        ");
    }
  }

  void driver(const Driver& d) {
    out_ << "driver " << d.name << "(" << (d.graph_param.empty() ? "" : "graph " + d.graph_param)
         << ")  ; " << d.loc.str() << "\n";
    for (const auto& p : d.params)
      out_ << "  option " << p.option_name() << " : " << p.var.type
           << (p.is_node ? " (vertex)" : "")
           << (p.default_value ? " = " + *p.default_value : " (required)") << "\n";
    for (const auto& requirement : d.input_requirements) out_ << "  requires " << requirement << "\n";
    for (const auto& field : d.path_length_fields)
      out_ << "  requires path lengths to fit " << field.name << " : " << field.element_type << "\n";
    block(d.body, "  ");
  }

  void block(const HostBlock& stmts, const std::string& indent) {
    for (const auto& s : stmts) host(s, indent);
  }

  void host(const HostStmt& s, const std::string& indent) {
    using K = HostStmt::Kind;
    switch (s.kind) {
      case K::code:
        out_ << indent << "code\n";
        code(s.code, indent + "  ");
        break;
      case K::launch:
        out_ << indent << "launch " << s.kernel << list(s.args) << "\n";
        break;
      case K::for_all_nodes:
        out_ << indent << "for-all-nodes " << s.kernel << list(s.args) << "\n";
        break;
      case K::output:
        out_ << indent << "output " << s.name << "\n";
        break;
      case K::pipe_loop:
        out_ << indent << "pipe-loop " << s.name
             << (s.outlined.empty() ? "" : " outlined " + s.outlined) << "\n";
        block(s.body, indent + "  ");
        break;
      case K::loop:
        out_ << indent
             << (s.form == HostStmt::LoopForm::for_loop   ? "for-loop"
                 : s.form == HostStmt::LoopForm::do_while ? "do-while-loop"
                                                           : "while-loop")
             << " (" << s.condition << ")\n";
        block(s.body, indent + "  ");
        break;
      case K::if_else:
        out_ << indent << "if (" << s.condition << ")\n";
        block(s.body, indent + "  ");
        if (!s.else_body.empty()) {
          out_ << indent << "else\n";
          block(s.else_body, indent + "  ");
        }
        break;
    }
  }

  std::ostringstream& out_;
};

}  // namespace

std::string dump(const Module& module) {
  std::ostringstream out;
  Dumper(out).module(module);
  return out.str();
}

std::string escape_string_literal(const std::string& text) {
  std::string escaped;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      escaped += '\\';
      escaped += static_cast<char>(c);
    } else if (c == '\n') {
      escaped += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      // Three octal digits, so that a digit after it cannot extend it.
      const char digits[] = {'\\', static_cast<char>('0' + (c >> 6)),
                             static_cast<char>('0' + ((c >> 3) & 7)),
                             static_cast<char>('0' + (c & 7)), '\0'};
      escaped += digits;
    } else if (c == '?' && i > 0 && text[i - 1] == '?') {
      escaped += "\\?";
    } else {
      escaped += static_cast<char>(c);
    }
  }
  return escaped;
}

std::string display_file_name(const std::string& name) {
  const std::string escaped = escape_string_literal(name);
  return escaped == name ? name : "\"" + escaped + "\"";
}

namespace {
std::string without_spaces(const std::string& argument) {
  std::string compact;
  for (char c : argument)
    if (c != ' ' && c != '\t' && c != '\n') compact += c;
  return compact;
}
}  // namespace

PipeSide pipe_side(const std::string& argument, const std::string& pipe) {
  const std::string compact = without_spaces(argument);
  if (compact == pipe + ".in()") return PipeSide::in;
  if (compact == pipe + ".out()") return PipeSide::out;
  return PipeSide::none;
}

std::string output_pipe(const std::string& argument) {
  const std::string compact = without_spaces(argument);
  const std::string suffix = ".out()";
  if (compact.size() <= suffix.size() ||
      compact.compare(compact.size() - suffix.size(), suffix.size(), suffix) != 0)
    return "";
  return compact.substr(0, compact.size() - suffix.size());
}

// The identifiers of an argument's text, but members (after `.`, `->`
// or `::`).
std::vector<std::string> identifiers_in(const std::string& text) {
  std::vector<std::string> names;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isdigit(c)) {  // a number, suffixes and digit separators included
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) ||
                                 text[i] == '.' || text[i] == '\''))
        ++i;
      continue;
    }
    if (!std::isalpha(c) && c != '_') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_'))
      ++end;
    const bool member = (i >= 1 && text[i - 1] == '.') ||
                        (i >= 2 && (text.compare(i - 2, 2, "->") == 0 ||
                                    text.compare(i - 2, 2, "::") == 0));
    if (!member) names.push_back(text.substr(i, end - i));
    i = end;
  }
  return names;
}

std::set<std::string> loop_variables(const HostStmt& loop) {
  std::set<std::string> own;
  if (loop.device_init.kind == DeviceCode::Kind::local) own.insert(loop.device_init.declared.name);
  for (const HostStmt& stmt : loop.body)
    if (stmt.kind == HostStmt::Kind::code && stmt.device.kind == DeviceCode::Kind::local)
      own.insert(stmt.device.declared.name);
  return own;
}

bool argument_varies(const HostStmt& loop, const HostStmt& launch, size_t index) {
  if (index < launch.device_args.size() && !launch.device_args[index].reductions_read.empty())
    return true;
  const std::set<std::string> own = loop_variables(loop);
  for (const std::string& name : identifiers_in(launch.args[index]))
    if (own.count(name)) return true;
  return false;
}

}  // namespace irglc
