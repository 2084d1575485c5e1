//===- DriverBuilder.cpp - The host driver from Clang's AST ----------------===//

#include "DriverBuilder.h"

#include <set>

#include "DeviceCode.h"
#include "DslModel.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace irglc {

using namespace clang;

namespace {

// Launches a kernel or for_all_nodes?
bool is_launch(const CallExpr* call) {
  const FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
  return callee && (dsl::is_kernel(callee) || dsl::prelude_function(call) == "for_all_nodes");
}

bool contains_launch(const Stmt* stmt) {
  if (!stmt) return false;
  if (isa<LambdaExpr>(stmt)) return false;
  if (is_launch(dyn_cast<CallExpr>(stmt))) return true;
  for (const Stmt* child : stmt->children())
    if (contains_launch(child)) return true;
  return false;
}

// The first launch in `stmt`, lambdas included (nullptr when none).
const CallExpr* first_launch(const Stmt* stmt) {
  if (!stmt) return nullptr;
  if (const auto* lambda = dyn_cast<LambdaExpr>(stmt)) return first_launch(lambda->getBody());
  if (const auto* call = dyn_cast<CallExpr>(stmt); is_launch(call)) return call;
  for (const Stmt* child : stmt->children())
    if (const CallExpr* launch = first_launch(child)) return launch;
  return nullptr;
}

// What a loop's condition is copied from: the declaration of its variable
// (`while (T x = f())`), else its expression.
const Stmt* condition_of(const DeclStmt* variable, const Expr* condition) {
  return variable ? static_cast<const Stmt*>(variable) : condition;
}

// The pipe of a loop condition `!pipe.empty()`, else null.
const VarDecl* pipe_of_condition(const Expr* condition) {
  const auto* negation = condition ? dyn_cast<UnaryOperator>(dsl::strip(condition)) : nullptr;
  const auto member = negation && negation->getOpcode() == UO_LNot
                          ? dsl::prelude_member_call(negation->getSubExpr())
                          : std::nullopt;
  if (!member || member->class_name != "Pipe" || member->method != "empty") return nullptr;
  return dsl::referenced_var(member->object);
}

// Whether running a loop body (or a for loop's increment) may end a loop
// over `pipe`: by a swap() of the pipe, by a use of the pipe other than
// in(), out(), empty(), size() and the pushes (a function it is passed to
// may swap it), or by leaving the loop (break, return, goto, throw, a call
// that does not return). Without a swap, the pipe's input only grows.
class PipeLoopExitFinder : public RecursiveASTVisitor<PipeLoopExitFinder> {
 public:
  using Base = RecursiveASTVisitor<PipeLoopExitFinder>;
  explicit PipeLoopExitFinder(const VarDecl* pipe) : pipe_(pipe) {}

  bool found = false;

  bool shouldVisitLambdaBody() const { return true; }
  // What a break, return or goto leaves.
  bool TraverseLambdaExpr(LambdaExpr* e) {
    return dsl::nested(functions_, [&] { return Base::TraverseLambdaExpr(e); });
  }
  bool TraverseForStmt(ForStmt* s) { return dsl::nested(loops_, [&] { return Base::TraverseForStmt(s); }); }
  bool TraverseWhileStmt(WhileStmt* s) {
    return dsl::nested(loops_, [&] { return Base::TraverseWhileStmt(s); });
  }
  bool TraverseDoStmt(DoStmt* s) { return dsl::nested(loops_, [&] { return Base::TraverseDoStmt(s); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt* s) {
    return dsl::nested(loops_, [&] { return Base::TraverseCXXForRangeStmt(s); });
  }
  bool TraverseSwitchStmt(SwitchStmt* s) {
    return dsl::nested(switches_, [&] { return Base::TraverseSwitchStmt(s); });
  }

  bool VisitBreakStmt(BreakStmt*) {
    return leaves(loops_ == 0 && switches_ == 0 && functions_ == 0);
  }
  bool VisitReturnStmt(ReturnStmt*) { return leaves(functions_ == 0); }
  bool VisitGotoStmt(GotoStmt*) { return leaves(functions_ == 0); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt*) { return leaves(functions_ == 0); }
  bool VisitCXXThrowExpr(CXXThrowExpr*) { return leaves(true); }
  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* callee = call->getDirectCallee();
    return leaves(callee && callee->isNoReturn());
  }
  // Visited before the pipe reference it calls on.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr* call) {
    const auto member = dsl::prelude_member_call(call);
    if (!member || dsl::referenced_var(member->object) != pipe_) return true;
    static const std::set<std::string> reads = {"in", "out", "empty", "size", "push", "push_all"};
    if (!reads.count(member->method)) return leaves(true);
    plain_uses_.insert(dsl::strip(member->object));
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    return leaves(ref->getDecl() == pipe_ && !plain_uses_.count(ref));
  }

 private:
  bool leaves(bool condition) {
    found |= condition;
    return !found;  // stop at the first
  }

  const VarDecl* pipe_;
  std::set<const Expr*> plain_uses_;
  int loops_ = 0, switches_ = 0, functions_ = 0;
};

// Warns about loops over a pipe that can never end: their body never swaps
// the pipe (nor passes it on, nor leaves the loop).
class EndlessPipeLoopFinder : public RecursiveASTVisitor<EndlessPipeLoopFinder> {
 public:
  explicit EndlessPipeLoopFinder(FrontendContext& context) : context_(context) {}

  bool TraverseLambdaExpr(LambdaExpr*) { return true; }  // no pipes there
  bool VisitWhileStmt(WhileStmt* loop) {
    check(loop, loop->getCond(), {loop->getBody()});
    return true;
  }
  bool VisitDoStmt(DoStmt* loop) {
    check(loop, loop->getCond(), {loop->getBody()});
    return true;
  }
  bool VisitForStmt(ForStmt* loop) {
    check(loop, loop->getCond(), {loop->getBody(), loop->getInc()});
    return true;
  }

 private:
  void check(const Stmt* loop, const Expr* condition, std::initializer_list<const Stmt*> parts) {
    const VarDecl* pipe = pipe_of_condition(condition);
    if (!pipe) return;
    PipeLoopExitFinder finder(pipe);
    for (const Stmt* part : parts)
      if (part && !finder.found) finder.TraverseStmt(const_cast<Stmt*>(part));
    if (finder.found) return;
    const std::string name = pipe->getNameAsString();
    context_.warning(loop->getBeginLoc(),
                     "the loop over pipe '" + name + "' never swaps it: " + name +
                         ".in() never empties, so once the loop starts it cannot end; call '" +
                         name + ".swap()' at the end of its body");
  }

  FrontendContext& context_;
};

// Whether `stmt` holds a label (outside lambdas): a goto may then skip
// statements of the driver's top level.
bool contains_label(const Stmt* stmt) {
  if (!stmt || isa<LambdaExpr>(stmt)) return false;
  if (isa<LabelStmt>(stmt)) return true;
  for (const Stmt* child : stmt->children())
    if (contains_label(child)) return true;
  return false;
}

void report_nested_requirement(FrontendContext& context, const CallExpr* call) {
  context.error(call->getBeginLoc(),
                "require() states what the program assumes of its graph: write it as a "
                "statement of the program body, not inside a loop or an if");
}

// Host code must not reach into GPU data except through the driver API.
class HostCodeVisitor : public RecursiveASTVisitor<HostCodeVisitor> {
 public:
  HostCodeVisitor(FrontendContext& context, bool& uses_pipe)
      : context_(context), uses_pipe_(uses_pipe) {}

  // A for_all_nodes body is checked where it is launched; any other lambda
  // runs on the host, where irglc does not rewrite launches.
  bool TraverseLambdaExpr(LambdaExpr* lambda) {
    if (const CallExpr* launch = first_launch(lambda->getBody()))
      context_.error(launch->getBeginLoc(),
                     "kernels and for_all_nodes are launched from the program's own "
                     "statements, not from inside a lambda: write the launches in the "
                     "program (in a loop if they repeat)");
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* call) {
    if (auto access = dsl::field_access(call)) {
      context_.error(call->getBeginLoc(),
                     "'" + access->field->getNameAsString() +
                         "[...]' in the driver: vertex data lives on the GPU; read or write it "
                         "in a kernel or a for_all_nodes body");
      return true;
    }
    if (call->getNumArgs() > 0 && dsl::reduction_op(call->getArg(0)->getType()) &&
        call->getOperator() != OO_Equal)
      context_.error(call->getBeginLoc(),
                     "reductions are combined in kernels; the driver may only reset them "
                     "(r = value) and read them (r.value())");
    return true;
  }

  // The driver's own require() statements never reach here (build_block
  // takes them); one nested in host code would be applied unconditionally.
  bool VisitCallExpr(CallExpr* call) {
    if (dsl::prelude_function(call) == "require") report_nested_requirement(context_, call);
    if (dsl::prelude_function(call) == "parallel")
      context_.error(call->getBeginLoc(), dsl::kParallelPlacement);
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr* call) {
    const auto member = dsl::prelude_member_call(call);
    if (member && (member->class_name == "Sum" || member->class_name == "Min" ||
                   member->class_name == "Max") && member->method == "reduce")
      context_.error(call->getExprLoc(), "reductions are combined in kernels; the driver may "
                                         "only reset them (r = value) and read them (r.value())");
    return true;
  }

  // A Pipe takes the run's options as its last argument on the GPU.
  bool VisitCXXConstructExpr(CXXConstructExpr* construct) {
    if (dsl::is_pipe(construct->getType()) && construct->getNumArgs() > 0 &&
        construct->getParenOrBraceRange().isValid())
      context_.mark_run_argument(construct->getParenOrBraceRange().getEnd());
    return true;
  }

  bool VisitVarDecl(VarDecl* var) {
    if (dsl::is_pipe(var->getType())) uses_pipe_ = true;
    if (dsl::is_worklist(var->getType()) && !var->getType()->isReferenceType())
      context_.error(var->getLocation(), "worklists come from a Pipe: use pipe.in() and "
                                         "pipe.out() instead of a Worklist variable");
    if (dsl::is_node_data(var->getType()) || dsl::is_array(var->getType()) ||
        dsl::reduction_op(var->getType()))
      context_.error(var->getLocation(), "declare NodeData, Arrays and reductions at file scope");
    return true;
  }

 private:
  FrontendContext& context_;
  bool& uses_pipe_;
};

}  // namespace

void DriverBuilder::check_host_code(const Stmt* stmt) {
  HostCodeVisitor visitor(context_, uses_pipe_);
  visitor.TraverseStmt(const_cast<Stmt*>(stmt));
}

bool DriverBuilder::build_call(const Stmt* stmt, HostStmt& out) {
  const auto* expr = dyn_cast<Expr>(stmt);
  const auto* call = expr ? dyn_cast<CallExpr>(dsl::strip(expr)) : nullptr;
  if (!call) return false;
  const FunctionDecl* callee = call->getDirectCallee();
  if (!callee) return false;
  out.loc = context_.loc(stmt->getBeginLoc());
  if (dsl::is_kernel(callee)) {
    out.kind = HostStmt::Kind::launch;
    out.kernel = callee->getNameAsString();
    for (const Expr* arg : call->arguments()) {
      check_host_code(arg);
      out.args.push_back(context_.text(arg->getSourceRange()));
      out.device_args.push_back(device_expression(arg, context_, false));
    }
    return true;
  }
  const std::string prelude = dsl::prelude_function(call);
  if (prelude == "for_all_nodes") {
    out.kind = HostStmt::Kind::for_all_nodes;
    const SourceLoc where = context_.loc(call->getBeginLoc());
    out.kernel = "for_all_nodes_line" + std::to_string(where.line);
    for (const Kernel& existing : *new_kernels_)
      if (existing.name == out.kernel) out.kernel += "_col" + std::to_string(where.column);
    std::vector<std::string> captured;
    auto kernel = kernels_.build_for_all_nodes(call, out.kernel, captured);
    if (!kernel) return true;
    out.args.push_back(kernel->loop.graph);
    for (const auto& name : captured) out.args.push_back(name);
    new_kernels_->push_back(std::move(*kernel));
    return true;
  }
  if (prelude == "output") {
    const VarDecl* var = call->getNumArgs() == 1 ? dsl::referenced_var(call->getArg(0)) : nullptr;
    if (!var || !(context_.fields.count(var) || context_.reductions.count(var))) {
      context_.error(call->getBeginLoc(), "output() takes a file-scope NodeData or reduction");
      return true;
    }
    out.kind = HostStmt::Kind::output;
    out.name = var->getNameAsString();
    return true;
  }
  return false;
}

HostStmt DriverBuilder::build_stmt(const Stmt* stmt) {
  HostStmt out;
  out.loc = context_.loc(stmt->getBeginLoc());
  if (build_call(stmt, out)) return out;
  if (!contains_launch(stmt)) {
    check_host_code(stmt);
    out.kind = HostStmt::Kind::code;
    out.code = context_.fragment(stmt);
    out.device = device_statement(stmt, context_);
    return out;
  }
  if (const auto* loop = dyn_cast<WhileStmt>(stmt)) {
    if (const VarDecl* pipe = pipe_of_condition(loop->getCond())) {
      out.kind = HostStmt::Kind::pipe_loop;
      out.name = pipe->getNameAsString();
    } else {
      out.kind = HostStmt::Kind::loop;
      out.form = HostStmt::LoopForm::while_loop;
      out.device_init.kind = out.device_increment.kind = DeviceCode::Kind::expression;  // none
    }
    const Stmt* condition = condition_of(loop->getConditionVariableDeclStmt(), loop->getCond());
    check_host_code(condition);
    out.condition = context_.text(condition->getSourceRange());
    out.device_condition = device_expression(condition, context_, false);
    out.body = build_block(loop->getBody());
    return out;
  }
  if (const auto* loop = dyn_cast<DoStmt>(stmt)) {
    out.kind = HostStmt::Kind::loop;
    out.form = HostStmt::LoopForm::do_while;
    out.device_init.kind = out.device_increment.kind = DeviceCode::Kind::expression;  // none
    check_host_code(loop->getCond());
    out.condition = context_.text(loop->getCond()->getSourceRange());
    out.device_condition = device_expression(loop->getCond(), context_, false);
    out.body = build_block(loop->getBody());
    return out;
  }
  if (const auto* loop = dyn_cast<ForStmt>(stmt)) {
    out.kind = HostStmt::Kind::loop;
    out.form = HostStmt::LoopForm::for_loop;
    out.device_init.kind = out.device_condition.kind = out.device_increment.kind =
        DeviceCode::Kind::expression;  // absent parts
    if (loop->getInit()) {
      out.device_init = device_loop_init(loop->getInit(), context_);
      check_host_code(loop->getInit());
      out.init = context_.text(loop->getInit()->getSourceRange());
      while (!out.init.empty() && (out.init.back() == ';' || out.init.back() == ' '))
        out.init.pop_back();
    }
    if (loop->getCond()) {
      const Stmt* condition =
          condition_of(loop->getConditionVariableDeclStmt(), loop->getCond());
      check_host_code(condition);
      out.condition = context_.text(condition->getSourceRange());
      out.device_condition = device_expression(condition, context_, false);
    }
    if (loop->getInc()) {
      check_host_code(loop->getInc());
      out.increment = context_.text(loop->getInc()->getSourceRange());
      out.device_increment = device_expression(loop->getInc(), context_, true);
    }
    out.body = build_block(loop->getBody());
    return out;
  }
  if (const auto* branch = dyn_cast<IfStmt>(stmt); branch && !branch->getInit() &&
                                                   !branch->getConditionVariable()) {
    out.kind = HostStmt::Kind::if_else;
    check_host_code(branch->getCond());
    out.condition = context_.text(branch->getCond()->getSourceRange());
    out.body = build_block(branch->getThen());
    if (branch->getElse()) out.else_body = build_block(branch->getElse());
    return out;
  }
  if (const auto* compound = dyn_cast<CompoundStmt>(stmt)) {
    out.kind = HostStmt::Kind::if_else;  // a bare block: if (true) { ... }
    out.condition = "true";
    out.body = build_block(compound);
    return out;
  }
  if (const auto* label = dyn_cast<LabelStmt>(stmt)) {
    context_.error(label->getIdentLoc(),
                   "a label on a statement that launches a kernel is not supported; label an "
                   "empty statement before it ('" + std::string(label->getName()) + ":;')");
    return out;
  }
  context_.error(stmt->getBeginLoc(),
                 "kernel launches must be statements of their own, in the driver body or in "
                 "its loops and if statements");
  return out;
}

// require(g, Input::..., path_lengths_fit(f), ...): recorded on the driver,
// not a statement of it. Only at the top of the program body: the generated
// program applies requirements before it loads the graph, not conditionally.
bool DriverBuilder::build_requirement(const Stmt* stmt, bool top_level) {
  const auto* expr = dyn_cast<Expr>(stmt);
  const auto* call = expr ? dyn_cast<CallExpr>(dsl::strip(expr)) : nullptr;
  if (dsl::prelude_function(call) != "require") return false;
  if (!top_level) {
    report_nested_requirement(context_, call);
    return true;
  }
  const VarDecl* graph = call->getNumArgs() ? dsl::referenced_var(call->getArg(0)) : nullptr;
  if (!graph || graph->getNameAsString() != driver_->graph_param) {
    context_.error(call->getBeginLoc(),
                   "require()'s first argument is the program's graph '" +
                       driver_->graph_param + "'");
    return true;
  }
  for (unsigned i = 1; i < call->getNumArgs(); ++i) {
    const Expr* arg = dsl::strip(call->getArg(i));
    const auto* ref = dyn_cast<DeclRefExpr>(arg);
    const auto* enumerator = ref ? dyn_cast<EnumConstantDecl>(ref->getDecl()) : nullptr;
    if (enumerator && dsl::in_prelude(enumerator)) {
      driver_->input_requirements.push_back(enumerator->getNameAsString());
    } else if (const auto* inner = dyn_cast<CallExpr>(arg);
               dsl::prelude_function(inner) == "path_lengths_fit") {
      add_path_length_field(inner);
    } else {
      context_.error(arg->getBeginLoc(), "require() takes Input::... requirements and "
                                         "path_lengths_fit(field) after the graph");
    }
  }
  return true;
}

void DriverBuilder::add_path_length_field(const CallExpr* call) {
  const VarDecl* var = call->getNumArgs() == 1 ? dsl::referenced_var(call->getArg(0)) : nullptr;
  if (!var || !dsl::is_node_data(var->getType())) {
    context_.error(call->getBeginLoc(), "path_lengths_fit() takes a file-scope NodeData");
    return;
  }
  const QualType element = dsl::template_argument(var->getType());
  if (!element->isIntegerType() || element->isBooleanType()) {
    context_.error(call->getArg(0)->getBeginLoc(),
                   "path_lengths_fit() checks integer vertex data, which wraps when a sum "
                   "overflows; '" + var->getNameAsString() + "' holds '" +
                       context_.type_name(element) + "'");
    return;
  }
  driver_->path_length_fields.push_back(
      {var->getNameAsString(), context_.type_name(element.getUnqualifiedType())});
}

HostBlock DriverBuilder::build_block(const Stmt* body) {
  HostBlock block;
  const bool top_level = body == program_body_;
  if (const auto* compound = dyn_cast<CompoundStmt>(body)) {
    for (const Stmt* stmt : compound->body())
      if (!build_requirement(stmt, top_level)) block.push_back(build_stmt(stmt));
  } else if (body && !build_requirement(body, false)) {
    block.push_back(build_stmt(body));
  }
  return block;
}

std::optional<Driver> DriverBuilder::build(const FunctionDecl* program,
                                           std::vector<Kernel>& new_kernels) {
  new_kernels_ = &new_kernels;
  Driver driver;
  uses_pipe_ = false;
  driver.name = program->getNameAsString();
  driver.loc = context_.loc(program->getLocation());
  if (!program->getReturnType()->isVoidType())
    context_.error(program->getReturnTypeSourceRange().getBegin(),
                   "the program returns void; its results are what it passes to output()");
  // The graph comes first; a program without one (tasks over its own data)
  // takes options only.
  const bool has_graph =
      program->getNumParams() > 0 && dsl::is_graph(program->getParamDecl(0)->getType());
  if (has_graph && !program->getParamDecl(0)->getType()->isReferenceType()) {
    context_.error(program->getParamDecl(0)->getLocation(),
                   "the program's graph parameter must be a reference: 'Graph& g'");
    return std::nullopt;
  }
  if (has_graph) driver.graph_param = program->getParamDecl(0)->getNameAsString();
  for (unsigned i = has_graph ? 1 : 0; i < program->getNumParams(); ++i) {
    const ParmVarDecl* param = program->getParamDecl(i);
    const QualType type = param->getType();
    ProgramParam pp;
    pp.var.name = param->getNameAsString();
    pp.loc = context_.loc(param->getLocation());
    if (dsl::is_graph(type)) {
      context_.error(param->getLocation(), "the graph must be the program's first parameter");
      continue;
    }
    if (type->isReferenceType() || !(type->isArithmeticType())) {
      context_.error(param->getLocation(),
                     "program parameter '" + pp.var.name +
                         "' must be a number, a bool or a Node: it becomes a command-line option");
      continue;
    }
    pp.var.type = context_.type_name(type.getUnqualifiedType());
    const uint64_t bits = context_.ast().getTypeSize(type);
    if (type->isBooleanType()) pp.value_kind = "boolean";
    else if (type->isRealFloatingType() && bits <= 64) pp.value_kind = bits == 32 ? "f32" : "f64";
    else if (type->isIntegerType() && (bits == 32 || bits == 64))
      pp.value_kind = std::string(type->isUnsignedIntegerType() ? "u" : "i") + std::to_string(bits);
    if (pp.value_kind.empty()) {
      context_.error(param->getLocation(),
                     "program parameter '" + pp.var.name + "' has type '" + pp.var.type +
                         "'; options are 32- or 64-bit integers, float, double or bool");
      continue;
    }
    if (const auto* typedef_type = type->getAs<TypedefType>())
      pp.is_node = typedef_type->getDecl()->getName() == "Node" &&
                   dsl::in_prelude(typedef_type->getDecl());
    if (pp.is_node && !has_graph)
      context_.error(param->getLocation(), "program parameter '" + pp.var.name +
                                               "' is a Node, but the program takes no graph");
    if (param->hasDefaultArg())
      pp.default_value = context_.original_text(param->getDefaultArgRange());
    driver.params.push_back(pp);
  }
  driver_ = &driver;
  program_body_ = program->getBody();
  driver.body = build_block(program->getBody());
  driver.uses_pipe = uses_pipe_;
  driver.has_labels = contains_label(program->getBody());
  EndlessPipeLoopFinder(context_).TraverseStmt(program->getBody());
  if (context_.has_errors()) return std::nullopt;
  return driver;
}

}  // namespace irglc
