//===- KernelBuilder.cpp - Kernels from Clang's AST ------------------------===//

#include "KernelBuilder.h"

#include <algorithm>
#include <map>
#include <set>

#include "DslModel.h"
#include "FieldAccesses.h"
#include "ReservedNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace irglc {

using namespace clang;

namespace {

enum class Region { prologue, vertex, edge };

std::vector<const Stmt*> statements_of(const Stmt* body) {
  if (const auto* compound = dyn_cast<CompoundStmt>(body))
    return std::vector<const Stmt*>(compound->body_begin(), compound->body_end());
  return {body};
}

// The `if (COND) break;` that ends an edge loop's body, if it does.
const IfStmt* settling_break(const CXXForRangeStmt* loop) {
  const std::vector<const Stmt*> statements = statements_of(loop->getBody());
  if (statements.empty()) return nullptr;
  const auto* branch = dyn_cast<IfStmt>(statements.back());
  if (!branch || branch->getElse() || branch->getInit() || branch->getConditionVariable())
    return nullptr;
  const Stmt* then = branch->getThen();
  if (const auto* compound = dyn_cast<CompoundStmt>(then); compound && compound->size() == 1)
    then = compound->body_front();
  return isa<BreakStmt>(then) ? branch : nullptr;
}

// The accumulator `expr` names, if it names one.
const VarDecl* accumulator_in(const Expr* expr,
                              const std::map<const VarDecl*, AccumulatorOp>& accumulators) {
  const auto* ref = dyn_cast<DeclRefExpr>(expr->IgnoreParenImpCasts());
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return var && accumulators.count(var) ? var : nullptr;
}

bool is_integer(const Expr* expr, int64_t value) {
  const auto* literal = dyn_cast<IntegerLiteral>(expr->IgnoreParenImpCasts());
  return literal && literal->getValue() == value;
}

// Whether `value` is 0 or 1 whatever the data: a truth value, or `c ? 1 : 0`.
bool zero_or_one(const Expr* value) {
  const Expr* e = value->IgnoreParenImpCasts();
  if (e->getType()->isBooleanType()) return true;
  const auto* choice = dyn_cast<ConditionalOperator>(e);
  return choice && ((is_integer(choice->getTrueExpr(), 1) && is_integer(choice->getFalseExpr(), 0)) ||
                    (is_integer(choice->getTrueExpr(), 0) && is_integer(choice->getFalseExpr(), 1)));
}

// One test of a settling break: the accumulator it fixes, when it fixes
// one. `flag != 0` (or `flag`) fixes an |= accumulator that only ever adds
// 0 or 1; `all == 0` (or `!all`) fixes an &= accumulator (zero absorbs).
const VarDecl* fixed_by(const Expr* test, const std::map<const VarDecl*, AccumulatorOp>& accumulators,
                        const std::set<const VarDecl*>& flags) {
  const Expr* e = test->IgnoreParenImpCasts();
  bool zero = false;  // the test is for zero
  const VarDecl* var = accumulator_in(e, accumulators);
  if (!var) {
    if (const auto* unary = dyn_cast<UnaryOperator>(e); unary && unary->getOpcode() == UO_LNot) {
      var = accumulator_in(unary->getSubExpr(), accumulators);
      zero = true;
    } else if (const auto* compare = dyn_cast<BinaryOperator>(e);
               compare && (compare->getOpcode() == BO_EQ || compare->getOpcode() == BO_NE)) {
      zero = compare->getOpcode() == BO_EQ;
      if (is_integer(compare->getRHS(), 0)) var = accumulator_in(compare->getLHS(), accumulators);
      else if (is_integer(compare->getLHS(), 0)) var = accumulator_in(compare->getRHS(), accumulators);
    }
  }
  if (!var) return nullptr;
  const AccumulatorOp op = accumulators.at(var);
  if (zero ? op == AccumulatorOp::bit_and : op == AccumulatorOp::bit_or && flags.count(var))
    return var;
  return nullptr;
}

// The tests of `condition`, a && of them.
void conjuncts(const Expr* condition, std::vector<const Expr*>& tests) {
  const Expr* e = condition->IgnoreParenImpCasts();
  if (const auto* both = dyn_cast<BinaryOperator>(e); both && both->getOpcode() == BO_LAnd) {
    conjuncts(both->getLHS(), tests);
    conjuncts(both->getRHS(), tests);
    return;
  }
  tests.push_back(condition);
}

void add_unique(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

// The variable or vertex-data element an lvalue expression denotes, looking
// through member access (`data[v].x`) and subscripts of local arrays.
struct WriteTarget {
  std::optional<dsl::FieldAccess> field;
  const VarDecl* var = nullptr;
  const DeclRefExpr* ref = nullptr;
};

WriteTarget write_target(const Expr* lvalue) {
  const Expr* current = dsl::strip(lvalue);
  while (true) {
    if (auto field = dsl::field_access(current)) return {field, nullptr, nullptr};
    if (const auto* member = dyn_cast<MemberExpr>(current); member && !member->isArrow()) {
      current = dsl::strip(member->getBase());
      continue;
    }
    if (const auto* subscript = dyn_cast<ArraySubscriptExpr>(current)) {
      current = dsl::strip(subscript->getBase());
      continue;
    }
    break;
  }
  const auto* ref = dyn_cast<DeclRefExpr>(current);
  return {std::nullopt, ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr, ref};
}

// The NodeData of a statement `f[vertex] = ...;`, else null.
const VarDecl* assigned_field_at(const Stmt* stmt, const VarDecl* vertex) {
  const auto* expr = dyn_cast<Expr>(stmt);
  if (!expr) return nullptr;
  expr = dsl::strip(expr);
  const Expr* target = nullptr;
  if (const auto* assign = dyn_cast<BinaryOperator>(expr); assign && assign->getOpcode() == BO_Assign)
    target = assign->getLHS();
  else if (const auto* call = dyn_cast<CXXOperatorCallExpr>(expr);
           call && call->getOperator() == OO_Equal)
    target = call->getArg(0);
  const auto access = target ? dsl::field_access(target) : std::nullopt;
  if (!access || dsl::referenced_var(access->index) != vertex) return nullptr;
  return access->field;
}

// How many times `code` names `var`.
unsigned references_to(const Stmt* code, const VarDecl* var) {
  struct Counter : RecursiveASTVisitor<Counter> {
    const VarDecl* var;
    unsigned count = 0;
    bool VisitDeclRefExpr(DeclRefExpr* ref) {
      count += ref->getDecl() == var;
      return true;
    }
  } counter;
  counter.var = var;
  counter.TraverseStmt(const_cast<Stmt*>(code));
  return counter.count;
}

// Whether some vertex may leave the loop's body early: a `continue` (or a
// `return` in for_all_nodes) anywhere in it.
bool leaves_vertex_early(const VertexLoop& loop) {
  auto leaves = [](const CodeFragment& fragment) {
    return fragment.holds(CodeSegment::Kind::next_vertex);
  };
  return std::any_of(loop.pre.begin(), loop.pre.end(),
                     [&](const PreStep& step) { return leaves(step.code); }) ||
         std::any_of(loop.post.begin(), loop.post.end(), leaves) ||
         (loop.edge_loop &&
          std::any_of(loop.edge_loop->body.begin(), loop.edge_loop->body.end(), leaves));
}

// A statement writing to a vertex-loop variable from inside the edge loop.
struct LocalWrite {
  const VarDecl* var;
  const Expr* write;  // the assignment, compound assignment, ++/-- or call
};

// Block-shared memory for a block task's variables: a block has 48 KiB of
// static shared memory, and the pools keep their own state there too.
constexpr uint64_t kTaskVariableBytes = 32 * 1024;

// What the code of a block task shares: its parallel loops (top-level
// `for (T i : parallel(first, last))`) and its task variables (declared
// at the top level of its body).
struct BlockTaskScope {
  std::set<const CXXForRangeStmt*> loops;
  std::set<const VarDecl*> variables;
  std::vector<const DeclStmt*> declarations;  // of the variables, in order
};

// Walks one region of a kernel (prologue, vertex-loop code or edge-loop
// body), reporting races and misplaced control flow, turning `continue` (and
// `return` in for_all_nodes bodies) that leave the parallel loop into holes,
// routing in-edge accessors, and collecting what the region uses.
class RegionVisitor : public RecursiveASTVisitor<RegionVisitor> {
 public:
  using Base = RecursiveASTVisitor<RegionVisitor>;

  RegionVisitor(FrontendContext& context, Region region, const Stmt* region_root,
                const VarDecl* vertex, const VarDecl* iterated_worklist, bool is_lambda,
                const std::set<const VarDecl*>& per_thread,
                const std::set<const VarDecl*>& vertex_locals, const VarDecl* edge_var,
                EdgeDirection direction)
      : context_(context),
        region_(region),
        region_root_(region_root),
        vertex_(vertex),
        iterated_worklist_(iterated_worklist),
        is_lambda_(is_lambda),
        per_thread_(per_thread),
        vertex_locals_(vertex_locals),
        edge_var_(edge_var),
        direction_(direction) {}

  bool shouldVisitLambdaBody() const { return true; }

  // Task code of a block task: its parallel loops may appear.
  void set_block_task(const BlockTaskScope* block) { block_ = block; }

  // Loop, switch and function nesting decide what continue/break/return
  // bind to; lambdas and the member functions of local classes are
  // functions of their own.
  bool TraverseForStmt(ForStmt* s) { return dsl::nested(loops_, [&] { return Base::TraverseForStmt(s); }); }
  bool TraverseWhileStmt(WhileStmt* s) { return dsl::nested(loops_, [&] { return Base::TraverseWhileStmt(s); }); }
  bool TraverseDoStmt(DoStmt* s) { return dsl::nested(loops_, [&] { return Base::TraverseDoStmt(s); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt* s) {
    if (s == region_root_) return Base::TraverseStmt(s->getBody());
    if (block_ && block_->loops.count(s)) return traverse_parallel_loop(s);
    return dsl::nested(loops_, [&] { return Base::TraverseCXXForRangeStmt(s); });
  }
  bool TraverseSwitchStmt(SwitchStmt* s) { return dsl::nested(switches_, [&] { return Base::TraverseSwitchStmt(s); }); }
  bool TraverseLambdaExpr(LambdaExpr* e) { return dsl::nested(functions_, [&] { return Base::TraverseLambdaExpr(e); }); }
  bool TraverseCXXRecordDecl(CXXRecordDecl* d) { return dsl::nested(functions_, [&] { return Base::TraverseCXXRecordDecl(d); }); }

  bool VisitContinueStmt(ContinueStmt* s) {
    if (loops_ > 0 || functions_ > 0 || parallel_index_) return true;
    if (region_ == Region::edge) context_.mark_hole(s, CodeSegment::Kind::next_edge);
    else if (region_ == Region::vertex) context_.mark_hole(s, CodeSegment::Kind::next_vertex);
    return true;
  }

  bool VisitBreakStmt(BreakStmt* s) {
    if (loops_ > 0 || switches_ > 0 || functions_ > 0) return true;
    context_.error(s->getBeginLoc(),
                   std::string("'break' out of a parallel ") +
                       (region_ == Region::edge ? "edge " : parallel_index_ ? "" : loop_word()) +
                       (parallel_index_ || region_ == Region::edge ? "" : " ") +
                       "loop is not supported: every iteration runs, in no particular order");
    return true;
  }

  // A jump inside a function nested in the kernel stays there; any other
  // could cross the functions a kernel is cut into (pre, edge, post).
  bool VisitGotoStmt(GotoStmt* s) {
    if (functions_ > 0) return true;
    context_.error(s->getBeginLoc(),
                   "'goto' is not supported in kernels: irglc cuts a kernel into separate "
                   "functions for the code before, in and after its edge loop, which a jump "
                   "cannot cross; use 'continue', 'if' or a helper function");
    return true;
  }

  bool VisitReturnStmt(ReturnStmt* s) {
    if (functions_ > 0) return true;
    if (is_lambda_ && region_ == Region::vertex) {
      context_.mark_hole(s, CodeSegment::Kind::next_vertex);
      return true;
    }
    if (region_ == Region::prologue)
      context_.error(s->getBeginLoc(), "'return' before the vertex loop would skip the loop in "
                                       "some threads; kernels end after their vertex loop");
    else
      context_.error(s->getBeginLoc(),
                     "'return' inside a parallel loop is not supported; use 'continue' to "
                     "finish this " + std::string(region_ == Region::edge ? "edge" : loop_word()));
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator* op) {
    if (op->isAssignmentOp()) check_write(op->getLHS(), op);
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) check_write(op->getSubExpr(), op);
    return true;
  }

  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* callee = call->getDirectCallee();
    if (!callee) return true;
    const std::string prelude = dsl::prelude_function(call);
    if (prelude.rfind("atomic_", 0) == 0) {
      ++atomics;
      // Atomics may update vertex data and task variables anywhere; other
      // targets are writes.
      if (call->getNumArgs() > 0 && !dsl::field_access(call->getArg(0)) &&
          !task_variable(write_target(call->getArg(0)).var))
        check_write(call->getArg(0), call);
      return true;
    }
    if (prelude == "parallel" && !parallel_loop_range(call))
      context_.error(call->getBeginLoc(), dsl::kParallelPlacement);
    const unsigned first = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(callee) ? 1 : 0;
    for (unsigned i = first; i < call->getNumArgs() && i - first < callee->getNumParams(); ++i) {
      const QualType type = callee->getParamDecl(i - first)->getType();
      if (type->isLValueReferenceType() && !type.getNonReferenceType().isConstQualified())
        check_write(call->getArg(i), call);
    }
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr* call) {
    const CXXMethodDecl* method = call->getMethodDecl();
    if (!method) return true;
    if (dsl::field_access(call->getImplicitObjectArgument()) && !method->isConst())
      check_write(call->getImplicitObjectArgument(), call);
    const auto member = dsl::prelude_member_call(call);
    if (!member) return true;
    if (member->class_name == "TaskPool" && member->method == "push") {
      check_task_push(call, dsl::referenced_var(member->object));
      return true;
    }
    if (member->class_name == "Worklist" && member->method == "push") {
      const VarDecl* worklist = dsl::referenced_var(member->object);
      if (task_loop() && region_ != Region::prologue) {
        context_.error(call->getExprLoc(),
                       "a task loop pushes only to the pool it runs ('" +
                           iterated_worklist_->getNameAsString() +
                           "'); a worklist filled by tasks has no rounds to run it in");
      } else if (region_ == Region::prologue) {
        context_.error(call->getExprLoc(), "push before the vertex loop, where every thread would "
                                           "push; push inside the loop");
      } else if (worklist && worklist == iterated_worklist_) {
        context_.error(call->getExprLoc(),
                       "pushes to '" + worklist->getNameAsString() +
                           "', the worklist this loop iterates over; push to another worklist "
                           "(e.g. pipe.out())");
      } else if (worklist) {
        add_unique(worklists_pushed, worklist->getNameAsString());
      }
    }
    if (member->class_name == "Graph" && edge_var_ && call->getNumArgs() == 1 &&
        dsl::referenced_var(call->getArg(0)) == edge_var_)
      check_edge_accessor(call, member->method);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    const auto* var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var) return true;
    if (auto it = context_.fields.find(var); it != context_.fields.end())
      add_unique(fields_used, it->second);
    if (auto it = context_.reductions.find(var); it != context_.reductions.end()) {
      add_unique(reductions_used, it->second);
      if (region_ == Region::prologue)
        context_.error(ref->getLocation(), "reduction '" + it->second +
                                               "' used before the vertex loop, where every thread "
                                               "would combine into it; use it inside the loop");
    }
    if (region_ != Region::prologue && vertex_locals_.count(var)) local_refs.push_back(ref);
    return true;
  }

  // A statement left out of the region (an edge loop's settling break,
  // checked on its own).
  bool TraverseIfStmt(IfStmt* s) { return s == skipped_ || Base::TraverseIfStmt(s); }
  void skip(const Stmt* stmt) { skipped_ = stmt; }

  std::vector<std::string> fields_used, reductions_used, worklists_pushed;
  unsigned atomics = 0;                          // atomic_* calls
  std::vector<LocalWrite> local_writes;          // edge region only
  std::vector<const DeclRefExpr*> local_refs;    // uses of vertex-loop variables

 private:
  // The loop iterates over a TaskPool (iterated_worklist_ is the pool).
  bool task_loop() const {
    return iterated_worklist_ && dsl::is_task_pool(iterated_worklist_->getType());
  }
  const char* loop_word() const { return task_loop() ? "task" : "vertex"; }

  bool task_variable(const VarDecl* var) const { return block_ && block_->variables.count(var); }
  bool parallel_loop_range(const CallExpr* call) const {
    return block_ && std::any_of(block_->loops.begin(), block_->loops.end(),
                                 [&](const CXXForRangeStmt* loop) {
                                   return dsl::parallel_range(loop) == call;
                                 });
  }

  // A parallel loop's iterations: its own `continue`, no `break`, and
  // writes to task variables only through atomics.
  bool traverse_parallel_loop(CXXForRangeStmt* s) {
    const VarDecl* outer_index = parallel_index_;
    const int outer_loops = loops_, outer_switches = switches_;
    parallel_index_ = s->getLoopVariable();
    loops_ = switches_ = 0;
    const bool result = Base::TraverseCXXForRangeStmt(s);
    parallel_index_ = outer_index;
    loops_ = outer_loops;
    switches_ = outer_switches;
    return result;
  }

  // A task may write an element of vertex data or an Array without an
  // atomic where it owns the slot: at the index of its parallel loop, or
  // at a position it claimed with `const ... i = atomic_add(...)`.
  bool owned_slot(const Expr* index) const {
    const VarDecl* var = dsl::referenced_var(index);
    if (!var) return false;
    if (parallel_index_ && var == parallel_index_) return true;
    if (!var->getType().isConstQualified() || !var->hasInit()) return false;
    const auto* claim = dyn_cast<CallExpr>(dsl::strip(var->getInit()));
    return claim && dsl::prelude_function(claim) == "atomic_add";
  }

  // `pool.push(task)`: in a task loop, to the pool it runs; in a vertex
  // loop, to a pool parameter (tasks for a task kernel to run later).
  void check_task_push(const CXXMemberCallExpr* call, const VarDecl* pool) {
    const std::string name = pool ? pool->getNameAsString() : "the pool";
    if (region_ == Region::prologue || (!task_loop() && !(pool && isa<ParmVarDecl>(pool))))
      context_.error(call->getExprLoc(),
                     "push to '" + name + "' outside a loop: tasks are pushed by the driver "
                     "before the kernel runs, by a vertex loop to a pool parameter, or by tasks "
                     "inside 'for (... : " + name + ")'");
    else if (task_loop() && pool != iterated_worklist_)
      context_.error(call->getExprLoc(),
                     "a task loop pushes only to the pool it runs ('" +
                         iterated_worklist_->getNameAsString() + "'), not to '" + name + "'");
  }

  void check_write(const Expr* lvalue, const Expr* write) {
    const WriteTarget target = write_target(lvalue);
    if (target.field) {
      const std::string name = target.field->field->getNameAsString();
      const std::string element = context_.original_text(lvalue->getSourceRange());
      if (region_ == Region::prologue) {
        context_.error(lvalue->getBeginLoc(),
                       "write to '" + element + "' before the vertex loop: every thread would write it");
      } else if (task_loop()) {
        if (!owned_slot(target.field->index))
          context_.error(lvalue->getBeginLoc(),
                         "non-atomic write to '" + element +
                             "' in a task loop races: tasks run in parallel, in no particular "
                             "order; use an atomic (atomic_min, atomic_add, atomic_exch, ...), "
                             "or write at a slot the task owns: its parallel loop's index, or "
                             "a position claimed with 'const auto i = atomic_add(...)'");
      } else if (region_ == Region::edge) {
        context_.error(lvalue->getBeginLoc(),
                       "non-atomic write to '" + element +
                           "' inside the edge loop races: edge-parallel schedules run a vertex's "
                           "edges in different threads; use an atomic (atomic_min, atomic_add, "
                           "...) or accumulate into a variable declared before the edge loop and "
                           "write it after the loop");
      } else if (dsl::referenced_var(target.field->index) != vertex_) {
        context_.error(lvalue->getBeginLoc(),
                       "non-atomic write to '" + element +
                           "' races: other threads may update the same vertex; use an atomic "
                           "(atomic_min, atomic_add, ...) or write only to '" + name + "[" +
                           vertex_->getNameAsString() + "]'");
      }
      return;
    }
    const VarDecl* var = target.var;
    if (!var) return;
    if (var == vertex_ || (parallel_index_ && var == parallel_index_)) {
      context_.error(lvalue->getBeginLoc(), std::string("the loop's ") +
                                                (var == vertex_ ? loop_word() : "index") +
                                                " variable '" + var->getNameAsString() +
                                                "' cannot be changed");
      return;
    }
    if (parallel_index_ && task_variable(var)) {
      context_.error(lvalue->getBeginLoc(),
                     "non-atomic write to task variable '" + var->getNameAsString() +
                         "' inside a parallel loop races: the threads of a block run its "
                         "iterations at once; use an atomic (atomic_add, atomic_min, ...)");
      return;
    }
    if (region_ != Region::prologue && per_thread_.count(var)) {
      context_.error(lvalue->getBeginLoc(),
                     "'" + var->getNameAsString() +
                         "' is declared outside the vertex loop, so each thread has its own copy "
                         "and writes to it inside the loop depend on how vertices are mapped to "
                         "threads; declare it inside the loop or use a reduction");
      return;
    }
    if (region_ == Region::edge && vertex_locals_.count(var)) local_writes.push_back({var, write});
  }

  void check_edge_accessor(CXXMemberCallExpr* call, const std::string& method) {
    const std::string edge = edge_var_->getNameAsString();
    const std::string vertex = vertex_->getNameAsString();
    if (direction_ == EdgeDirection::in) {
      if (method == "weight" || method == "out_weight") {
        const auto* member = cast<MemberExpr>(call->getCallee()->IgnoreParens());
        context_.replace(SourceRange(member->getMemberLoc()), "in_weight");
      } else if (method == "dst") {
        context_.error(call->getExprLoc(), "'" + edge + "' is an in-edge of '" + vertex +
                                               "': its destination is '" + vertex +
                                               "'; use src(" + edge + ") for the other end");
      }
    } else if (method == "src" || method == "in_weight") {
      context_.error(call->getExprLoc(), "'" + edge + "' is an out-edge of '" + vertex +
                                             "': its source is '" + vertex + "'; use dst(" + edge +
                                             ") for the other end");
    }
  }

  FrontendContext& context_;
  Region region_;
  const Stmt* region_root_;
  const VarDecl* vertex_;
  const VarDecl* iterated_worklist_;
  bool is_lambda_;
  const std::set<const VarDecl*>& per_thread_;
  const std::set<const VarDecl*>& vertex_locals_;
  const VarDecl* edge_var_;
  EdgeDirection direction_;
  const BlockTaskScope* block_ = nullptr;
  const Stmt* skipped_ = nullptr;
  const VarDecl* parallel_index_ = nullptr;  // inside a parallel loop: its index
  int loops_ = 0, switches_ = 0, functions_ = 0;
};

// `var += x`, `var |= x`, `var &= x`, `++var`, `var = min(var, x)`,
// `var = max(var, x)`: the operator, and the references to var that belong
// to the accumulation itself.
std::optional<AccumulatorOp> match_accumulation(const Expr* write, const VarDecl* var,
                                                std::set<const DeclRefExpr*>& own_refs) {
  auto own = [&](const Expr* e) {
    const auto* ref = dyn_cast<DeclRefExpr>(dsl::strip(e));
    if (!ref || ref->getDecl() != var) return false;
    own_refs.insert(ref);
    return true;
  };
  if (const auto* compound = dyn_cast<CompoundAssignOperator>(write)) {
    if (!own(compound->getLHS())) return std::nullopt;
    switch (compound->getOpcode()) {
      case BO_AddAssign: return AccumulatorOp::sum;
      case BO_OrAssign: return AccumulatorOp::bit_or;
      case BO_AndAssign: return AccumulatorOp::bit_and;
      default: return std::nullopt;
    }
  }
  if (const auto* unary = dyn_cast<UnaryOperator>(write)) {
    if (unary->isIncrementOp() && own(unary->getSubExpr())) return AccumulatorOp::sum;
    return std::nullopt;
  }
  if (const auto* assign = dyn_cast<BinaryOperator>(write);
      assign && assign->getOpcode() == BO_Assign && own(assign->getLHS())) {
    const auto* call = dyn_cast<CallExpr>(dsl::strip(assign->getRHS()));
    const FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
    if (!callee || call->getNumArgs() != 2) return std::nullopt;
    const std::string name = callee->getNameAsString();
    const bool is_min = name == "min" || name == "fmin" || name == "fminf";
    const bool is_max = name == "max" || name == "fmax" || name == "fmaxf";
    if (!is_min && !is_max) return std::nullopt;
    if (!own(call->getArg(0)) && !own(call->getArg(1))) return std::nullopt;
    return is_min ? AccumulatorOp::min : AccumulatorOp::max;
  }
  return std::nullopt;
}

// Whether `stmt` holds a range-for over the edges of `vertex`.
bool contains_edge_loop(const Stmt* stmt, const VarDecl* vertex) {
  if (!stmt) return false;
  if (const auto* loop = dyn_cast<CXXForRangeStmt>(stmt)) {
    const auto range = dsl::edge_range(loop);
    if (range && dsl::referenced_var(range->vertex) == vertex) return true;
  }
  for (const Stmt* child : stmt->children())
    if (contains_edge_loop(child, vertex)) return true;
  return false;
}

// Whether `loop` is `for (...; i < N; ...)` (or <=, >, >=, !=) with N a
// constant: its trip count does not depend on the data.
bool counts_to_constant(const ForStmt* loop, const ASTContext& ast) {
  const auto* condition = dyn_cast_or_null<BinaryOperator>(loop->getCond());
  if (!condition || !condition->isComparisonOp() || condition->getOpcode() == BO_EQ) return false;
  return condition->getLHS()->isIntegerConstantExpr(ast) ||
         condition->getRHS()->isIntegerConstantExpr(ast);
}

// Whether running `stmt` may loop a number of times that depends on the
// data: it holds a loop statement (but a for loop to a constant), or calls a
// function of the program (not of the prelude) that may.
bool may_loop(const Stmt* stmt, const ASTContext& ast, std::set<const FunctionDecl*>& visited) {
  if (!stmt) return false;
  if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(stmt)) return true;
  if (const auto* loop = dyn_cast<ForStmt>(stmt); loop && !counts_to_constant(loop, ast))
    return true;
  if (const auto* call = dyn_cast<CallExpr>(stmt)) {
    const FunctionDecl* callee = call->getDirectCallee();
    const FunctionDecl* definition = nullptr;
    if (callee && callee->hasBody(definition) && !dsl::in_prelude(definition) &&
        visited.insert(definition).second && may_loop(definition->getBody(), ast, visited))
      return true;
  }
  for (const Stmt* child : stmt->children())
    if (may_loop(child, ast, visited)) return true;
  return false;
}

const CXXForRangeStmt* as_edge_loop(const Stmt* stmt, const VarDecl* vertex) {
  const auto* loop = dyn_cast<CXXForRangeStmt>(stmt);
  if (!loop) return nullptr;
  const auto range = dsl::edge_range(loop);
  return range && dsl::referenced_var(range->vertex) == vertex ? loop : nullptr;
}

// Whether the text between two offsets is only blanks and comments.
bool only_blanks_and_comments(StringRef text) {
  size_t i = 0;
  while (i < text.size()) {
    if (isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text.substr(i).startswith("//")) {
      i = text.find('\n', i);
      if (i == StringRef::npos) return true;
    } else if (text.substr(i).startswith("/*")) {
      i = text.find("*/", i + 2);
      if (i == StringRef::npos) return false;
      i += 2;
    } else {
      return false;
    }
  }
  return true;
}

// Adds what a declaration before the edge loop declares, other than
// variables (which travel in the Closure): types, aliases, a local enum's
// enumerators, structured bindings.
void add_local_declaration(const Decl* decl, std::set<const Decl*>& declarations) {
  if (isa<VarDecl>(decl) && !isa<DecompositionDecl>(decl)) return;
  declarations.insert(decl);
  if (const auto* decomposition = dyn_cast<DecompositionDecl>(decl))
    for (const BindingDecl* binding : decomposition->bindings()) declarations.insert(binding);
  if (const auto* enumeration = dyn_cast<EnumDecl>(decl))
    for (const EnumConstantDecl* enumerator : enumeration->enumerators())
      declarations.insert(enumerator);
}

// Uses, in code, of the declarations of a set.
class DeclarationUses : public RecursiveASTVisitor<DeclarationUses> {
 public:
  explicit DeclarationUses(const std::set<const Decl*>& declarations)
      : declarations_(declarations) {}

  std::vector<std::pair<const NamedDecl*, SourceLocation>> uses;

  bool shouldVisitLambdaBody() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr* ref) { return use(ref->getDecl(), ref->getLocation()); }
  bool VisitTagTypeLoc(TagTypeLoc loc) { return use(loc.getDecl(), loc.getNameLoc()); }
  bool VisitTypedefTypeLoc(TypedefTypeLoc loc) {
    return use(loc.getTypedefNameDecl(), loc.getNameLoc());
  }

 private:
  bool use(const NamedDecl* decl, SourceLocation where) {
    if (declarations_.count(decl)) uses.push_back({decl, where});
    return true;
  }
  const std::set<const Decl*>& declarations_;
};

// Whether `type` is spelled with a type alias declared in a function.
bool names_local_alias(QualType type) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool found = false;
    bool VisitTypedefType(TypedefType* alias) {
      found |= alias->getDecl()->getDeclContext()->isFunctionOrMethod();
      return !found;
    }
  } finder;
  finder.TraverseType(type);
  return finder.found;
}

// Why a variable of `type` cannot be a Closure member (copied as bytes to
// the thread that runs the edge or post code), or "".
std::string closure_type_problem(QualType type, FrontendContext& context) {
  if (type->isLValueReferenceType() && !type.getNonReferenceType().isConstQualified())
    return "a reference to a non-const object becomes a copy of its value, so writes through "
           "it would be lost; write the object it refers to by name (e.g. the vertex data)";
  type = type.getNonReferenceType();
  if (type->isArrayType())
    return "an array cannot be copied; copy the elements needed into variables, or wrap the "
           "array in a struct declared at file scope";
  if (const TagDecl* tag = type->getAsTagDecl(); tag && tag->getDeclContext()->isFunctionOrMethod())
    return "its type is declared inside the kernel, where the copy cannot name it; declare the "
           "type at file scope (or call a helper function instead of a lambda)";
  if (!type.isTriviallyCopyableType(context.ast()))
    return "its type '" + context.type_name(type.getUnqualifiedType()) +
           "' is not trivially copyable";
  return "";
}

// Whether a captured driver variable holds the same value in every process
// of a multi-GPU run: a program parameter (each process parses the same
// command line; a random vertex comes from a shared seed) or a const
// initialised by a constant expression. A local computed from the graph
// (g.num_edges() is the part's) may differ.
bool same_in_every_process(const VarDecl* var, const ASTContext& ast) {
  if (isa<ParmVarDecl>(var)) return true;
  const Expr* init = var->getInit();
  return var->getType().isConstQualified() && init && !init->isValueDependent() &&
         init->isEvaluatable(ast);
}

}  // namespace

//===----------------------------------------------------------------------===//

std::string KernelBuilder::member_type_name(const VarDecl* var) {
  QualType type = var->getType().getNonReferenceType().getUnqualifiedType();
  // The Closure and Accum structs are outside the kernel, where its own
  // aliases do not exist.
  if (names_local_alias(type)) type = type.getCanonicalType();
  return context_.type_name(type);
}

void KernelBuilder::check_pre_declaration_uses(const Scope& scope, const Stmt* code,
                                               std::set<const Decl*>& reported) {
  DeclarationUses finder(scope.pre_declarations);
  finder.TraverseStmt(const_cast<Stmt*>(code));
  for (const auto& [decl, where] : finder.uses)
    if (reported.insert(decl).second)
      context_.error(where, "'" + decl->getNameAsString() +
                                "' is declared before the edge loop, but the edge loop and the "
                                "code after it are generated as functions of their own, where it "
                                "does not exist; declare it at file scope (a type) or copy it "
                                "into a variable (a structured binding)");
}

bool KernelBuilder::check_closure_var(const VarDecl* var, const DeclRefExpr* use) {
  const std::string problem = closure_type_problem(var->getType(), context_);
  if (problem.empty()) return true;
  context_.error(use->getLocation(), "'" + var->getNameAsString() +
                                         "' is declared before the edge loop and used in or "
                                         "after it, so the generated code copies it (possibly "
                                         "to another thread), but " + problem);
  return false;
}

void KernelBuilder::attach_pragma(const Stmt* vertex_loop, const Stmt* edge_loop, EdgeLoop* edge) {
  SourceManager& sources = context_.sources();
  const StringRef buffer = sources.getBufferData(sources.getMainFileID());
  for (SchedulePragma& pragma : context_.pragmas()) {
    if (pragma.used || !context_.in_main_file(pragma.loc)) continue;
    const unsigned pragma_offset = sources.getFileOffset(sources.getExpansionLoc(pragma.loc));
    const size_t line_end = buffer.find('\n', pragma_offset);
    if (line_end == StringRef::npos) continue;
    for (const Stmt* target : {vertex_loop, edge_loop}) {
      if (!target) continue;
      const unsigned target_offset =
          sources.getFileOffset(sources.getExpansionLoc(target->getBeginLoc()));
      if (target_offset <= line_end ||
          !only_blanks_and_comments(buffer.slice(line_end, target_offset)))
        continue;
      pragma.used = true;
      if (!edge) {
        context_.warning(pragma.loc, "'#pragma irgl schedule' has no effect: the loop below has "
                                     "no parallel edge loop to schedule");
      } else if (edge->annotation) {
        context_.error(pragma.loc, "a second '#pragma irgl schedule' for the same loop nest");
      } else {
        edge->annotation = pragma.schedule;
        edge->annotation_loc = context_.loc(pragma.loc);
      }
    }
  }
}

bool KernelBuilder::split_body(Scope& scope, const Stmt* body, VertexLoop& loop,
                               std::vector<const Stmt*>& pre,
                               std::vector<const Stmt*>& guards,
                               std::vector<const Stmt*>& post, const CXXForRangeStmt*& edge) {
  const std::vector<const Stmt*> statements = statements_of(body);
  if (loop.domain == VertexDomain::tasks) {  // sequential code per task
    pre.insert(pre.end(), statements.begin(), statements.end());
    return true;
  }
  for (size_t i = 0; i < statements.size(); ++i) {
    const Stmt* stmt = statements[i];
    if (edge) {
      if (contains_edge_loop(stmt, scope.vertex)) {
        context_.error(stmt->getBeginLoc(),
                       "a vertex loop may hold only one parallel edge loop; split the work into "
                       "two kernels");
        return false;
      }
      post.push_back(stmt);
      continue;
    }
    if (const CXXForRangeStmt* loop_stmt = as_edge_loop(stmt, scope.vertex)) {
      edge = loop_stmt;
      continue;
    }
    if (!contains_edge_loop(stmt, scope.vertex)) {
      pre.push_back(stmt);
      continue;
    }
    const auto* guard = dyn_cast<IfStmt>(stmt);
    if (!guard || guard->getElse() || guard->getInit() || guard->getConditionVariable() ||
        i + 1 != statements.size()) {
      context_.error(stmt->getBeginLoc(),
                     "a parallel edge loop must be a statement of the vertex loop body, or "
                     "nested only in 'if' statements (without 'else') that end the body");
      return false;
    }
    pre.push_back(guard);
    guards.push_back(guard);
    if (!split_body(scope, guard->getThen(), loop, pre, guards, post, edge)) return false;
  }
  return true;
}

// Whether every write to vertex data in `accesses` is an atomic_min at the
// out-edge's destination whose old value the code reads (a decrease test).
static bool only_min_decreases(const std::vector<FieldAccess>& accesses) {
  for (const FieldAccess& access : accesses)
    if (access.update != FieldUpdate::none &&
        (access.update != FieldUpdate::min || !access.at_out_edge_destination || !access.result_used))
      return false;
  return true;
}

bool KernelBuilder::build_vertex_loop(Scope& scope, const Stmt* loop_stmt, const Stmt* body,
                                      VertexLoop& loop, Kernel& kernel) {
  if (loop.domain == VertexDomain::tasks) {
    const std::vector<const Stmt*> statements = statements_of(body);
    if (std::any_of(statements.begin(), statements.end(), [](const Stmt* stmt) {
          const auto* range_for = dyn_cast<CXXForRangeStmt>(stmt);
          return range_for && dsl::parallel_range(range_for);
        }))
      return build_block_task(scope, statements, loop, kernel);
  }
  std::vector<const Stmt*> pre, guards, post;
  const CXXForRangeStmt* edge_stmt = nullptr;
  if (!split_body(scope, body, loop, pre, guards, post, edge_stmt)) return false;
  auto is_guard = [&](const Stmt* s) {
    return std::find(guards.begin(), guards.end(), s) != guards.end();
  };

  // Variables the edge loop can see from the vertex body, and what else the
  // code before it declares.
  for (const Stmt* stmt : pre)
    if (const auto* decl = dyn_cast<DeclStmt>(stmt))
      for (const Decl* d : decl->decls()) {
        if (const auto* var = dyn_cast<VarDecl>(d)) scope.vertex_locals.insert(var);
        add_local_declaration(d, scope.pre_declarations);
      }

  // Visits vertex-loop code; returns its uses of vertex-loop variables.
  auto visit_vertex_code = [&](const Stmt* stmt) {
    RegionVisitor visitor(context_, Region::vertex, nullptr, scope.vertex, scope.iterated_worklist,
                          scope.is_lambda, scope.per_thread, scope.vertex_locals, nullptr,
                          EdgeDirection::out);
    visitor.TraverseStmt(const_cast<Stmt*>(stmt));
    for (const auto& f : visitor.fields_used) add_unique(kernel.fields_used, f);
    for (const auto& r : visitor.reductions_used) add_unique(kernel.reductions_used, r);
    for (const auto& w : visitor.worklists_pushed) add_unique(kernel.worklists_pushed, w);
    return visitor.local_refs;
  };
  for (const Stmt* stmt : pre)
    visit_vertex_code(is_guard(stmt) ? cast<IfStmt>(stmt)->getCond() : stmt);

  if (edge_stmt) {
    EdgeLoop edge;
    if (!build_edge_loop(scope, edge_stmt, edge, kernel)) return false;
    attach_pragma(loop_stmt, edge_stmt, &edge);
    loop.edge_loop = std::move(edge);
  } else {
    attach_pragma(loop_stmt, nullptr, nullptr);
  }
  // Code after the edge loop may run in another thread than the code before
  // it (edge-parallel schedules): what it reads from before joins the closure.
  std::set<const VarDecl*> unfit;  // reported once
  std::set<const Decl*> reported;
  for (const Stmt* stmt : post) check_pre_declaration_uses(scope, stmt, reported);
  for (const Stmt* stmt : post)
    for (const DeclRefExpr* ref : visit_vertex_code(stmt)) {
      if (!loop.edge_loop) continue;
      const auto* var = cast<VarDecl>(ref->getDecl());
      const std::string name = var->getNameAsString();
      EdgeLoop& edge = *loop.edge_loop;
      const bool known =
          std::any_of(edge.closure.begin(), edge.closure.end(), [&](const Variable& v) { return v.name == name; }) ||
          std::any_of(edge.accumulators.begin(), edge.accumulators.end(),
                      [&](const Accumulator& a) { return a.var.name == name; });
      if (known || unfit.count(var)) continue;
      if (check_closure_var(var, ref))
        edge.closure.push_back({name, member_type_name(var)});
      else
        unfit.insert(var);
    }
  if (context_.has_errors()) return false;

  // All rewrites are in place: copy the code.
  for (const Stmt* stmt : pre) {
    PreStep step;
    if (is_guard(stmt)) {
      const Expr* condition = cast<IfStmt>(stmt)->getCond();
      step.kind = PreStep::Kind::guard;
      step.code = CodeFragment::text(context_.text(condition->getSourceRange()),
                                     context_.loc(condition->getBeginLoc()));
    } else {
      step.code = context_.fragment(stmt);
    }
    loop.pre.push_back(std::move(step));
  }
  if (edge_stmt) {
    const IfStmt* settle = settling_break(edge_stmt);  // kept as EdgeLoop::settle
    for (const Stmt* stmt : statements_of(edge_stmt->getBody()))
      if (stmt != settle) loop.edge_loop->body.push_back(context_.fragment(stmt));
  }
  for (const Stmt* stmt : post) loop.post.push_back(context_.fragment(stmt));
  if (loop.domain == VertexDomain::all_nodes)
    kernel.fields_written_whole = fields_written_whole(scope, loop, pre, guards, post);
  LoopAccesses accesses = loop_accesses(context_, body, scope.vertex, edge_stmt);
  kernel.field_accesses = std::move(accesses.fields);
  kernel.pushes_at_out_edge_destinations = accesses.pushes_at_out_edge_destinations;
  kernel.loop_uses_graph = accesses.uses_graph;
  kernel.pushes_chain = accesses.pushes_follow_min_decrease && kernel.worklists_pushed.size() == 1 &&
                        only_min_decreases(kernel.field_accesses);
  return true;
}

bool KernelBuilder::build_block_task(Scope& scope, const std::vector<const Stmt*>& statements,
                                     VertexLoop& loop, Kernel& kernel) {
  const size_t errors_before = context_.errors_reported();
  auto failed = [&] { return context_.errors_reported() > errors_before; };
  BlockTaskScope block;
  uint64_t shared_bytes = 0;
  for (const Stmt* stmt : statements) {
    const auto* range_for = dyn_cast<CXXForRangeStmt>(stmt);
    if (range_for && dsl::parallel_range(range_for)) {
      block.loops.insert(range_for);
      continue;
    }
    const auto* decl_stmt = dyn_cast<DeclStmt>(stmt);
    if (!decl_stmt) continue;
    if (!decl_stmt->isSingleDecl()) {
      context_.error(stmt->getBeginLoc(), "declare one task variable per statement: the "
                                          "variables of a block task's body are shared by its "
                                          "threads, and each declaration is copied into place");
      continue;
    }
    const auto* var = dyn_cast<VarDecl>(decl_stmt->getSingleDecl());
    if (!var || var->isStaticLocal() || var->isConstexpr()) {
      context_.error(stmt->getBeginLoc(), "a block task's body declares variables only (no "
                                          "types, aliases, static or constexpr variables): "
                                          "declare those at file scope");
      continue;
    }
    const QualType type = var->getType();
    if (type->isReferenceType() || !type.isTriviallyCopyableType(context_.ast())) {
      context_.error(var->getLocation(),
                     "task variable '" + var->getNameAsString() + "' of type '" +
                         context_.type_name(type) + "': the threads of a block task share its "
                         "variables, which must be values of trivially copyable types");
      continue;
    }
    block.variables.insert(var);
    block.declarations.push_back(decl_stmt);
    shared_bytes += context_.ast().getTypeSizeInChars(type).getQuantity();
    if (shared_bytes > kTaskVariableBytes) {
      context_.error(var->getLocation(),
                     "the task variables up to '" + var->getNameAsString() + "' take " +
                         std::to_string(shared_bytes) + " bytes of a block's shared memory; "
                         "a block task may use at most " + std::to_string(kTaskVariableBytes) +
                         " (keep large data in an Array)");
      return false;
    }
  }
  if (failed()) return false;

  for (const Stmt* stmt : statements) {
    RegionVisitor visitor(context_, Region::vertex, nullptr, scope.vertex, scope.iterated_worklist,
                          scope.is_lambda, scope.per_thread, scope.vertex_locals, nullptr,
                          EdgeDirection::out);
    visitor.set_block_task(&block);
    visitor.TraverseStmt(const_cast<Stmt*>(stmt));
    for (const auto& f : visitor.fields_used) add_unique(kernel.fields_used, f);
    for (const auto& r : visitor.reductions_used) add_unique(kernel.reductions_used, r);
  }
  if (failed()) return false;

  // A task variable's declaration initialises a copy, which moves into the
  // task's variables, and the name refers to that from here on.
  for (const DeclStmt* decl_stmt : block.declarations) {
    const auto* var = cast<VarDecl>(decl_stmt->getSingleDecl());
    const std::string name = var->getNameAsString(), init = "irgl_init_" + name;
    Qualifiers qualifiers;
    const QualType member = context_.ast().getUnqualifiedArrayType(var->getType(), qualifiers);
    loop.task_variables.push_back(
        {name, context_.declaration(member, name), context_.loc(var->getLocation())});
    context_.replace(SourceRange(var->getLocation()), init);
    const std::string member_ref = "irgl_task_variables." + name;
    const std::string binding =
        (var->hasInit() ? " set_task_variable(" + member_ref + ", " + init + ");"
                        : " (void)" + init + ";") +
        " [[maybe_unused]]" + (var->getType().isConstQualified() ? " const" : "") + " auto& " +
        name + " = " +
        member_ref + ";";
    context_.replace(SourceRange(decl_stmt->getEndLoc()), ";" + binding);
  }

  // All rewrites are in place: copy the code, step by step.
  for (const Stmt* stmt : statements) {
    const auto* range_for = dyn_cast<CXXForRangeStmt>(stmt);
    const bool parallel = range_for && block.loops.count(range_for);
    if (parallel || loop.task_steps.empty() ||
        loop.task_steps.back().kind == TaskStep::Kind::parallel) {
      TaskStep step;
      step.kind = parallel ? TaskStep::Kind::parallel : TaskStep::Kind::code;
      step.loc = context_.loc(stmt->getBeginLoc());
      loop.task_steps.push_back(std::move(step));
    }
    TaskStep& step = loop.task_steps.back();
    step.code.push_back(context_.fragment(stmt));
    if (const auto* d = dyn_cast<DeclStmt>(stmt))
      step.declares.push_back(cast<VarDecl>(d->getSingleDecl())->getNameAsString());
  }
  return true;
}

std::vector<std::string> KernelBuilder::fields_written_whole(
    const Scope& scope, const VertexLoop& loop, const std::vector<const Stmt*>& pre,
    const std::vector<const Stmt*>& guards, const std::vector<const Stmt*>& post) {
  // A vertex that leaves early may skip the write.
  if (!scope.kernel_code || leaves_vertex_early(loop)) return {};
  // Statements every vertex runs: those before the first guard, and those
  // after the edge loop when there is no guard.
  std::vector<const Stmt*> unguarded;
  for (const Stmt* stmt : pre) {
    if (std::find(guards.begin(), guards.end(), stmt) != guards.end()) break;
    unguarded.push_back(stmt);
  }
  if (guards.empty()) unguarded.insert(unguarded.end(), post.begin(), post.end());
  std::vector<std::string> fields;
  for (const Stmt* stmt : unguarded)
    if (const VarDecl* field = assigned_field_at(stmt, scope.vertex);
        field && references_to(scope.kernel_code, field) == 1)  // the write only
      add_unique(fields, field->getNameAsString());
  return fields;
}

// Checks the `if (COND) break;` that ends an edge loop (COND fixes every
// accumulator `writes` build; the loop does nothing else with effects) and
// records it as EdgeLoop::settle; reports and returns false otherwise.
static bool check_settling_break(FrontendContext& context_, const IfStmt* settle,
                                 const std::map<const VarDecl*, AccumulatorOp>& accumulators,
                                 const std::vector<LocalWrite>& writes, bool atomics,
                                 EdgeLoop& edge) {
  // |= accumulators whose every contribution is 0 or 1: set, they stay 1.
  std::set<const VarDecl*> flags, not_flags;
  for (const LocalWrite& write : writes) {
    const auto* compound = dyn_cast<CompoundAssignOperator>(write.write);
    (compound && zero_or_one(compound->getRHS()) ? flags : not_flags).insert(write.var);
  }
  for (const VarDecl* var : not_flags) flags.erase(var);
  // The condition must fix every accumulator: then the loop's results are
  // the same wherever it stops, on every schedule and on the CPU.
  const Expr* condition = settle->getCond();
  std::vector<const Expr*> tests;
  conjuncts(condition, tests);
  std::set<const VarDecl*> fixed;
  for (const Expr* test : tests) {
    const VarDecl* var = fixed_by(test, accumulators, flags);
    if (!var || !fixed.insert(var).second) {
      context_.error(test->getBeginLoc(),
                     "an edge loop may end with 'if (...) break;' only when its condition fixes "
                     "every accumulator of the loop: a && of tests, one per accumulator, each an "
                     "|= flag whose edges add 0 or 1 tested for non-zero or an &= accumulator "
                     "tested for zero ('" + context_.text(test->getSourceRange()) + "' is not)");
      return false;
    }
  }
  for (const auto& [var, op] : accumulators)
    if (!fixed.count(var)) {
      context_.error(condition->getBeginLoc(),
                     "the edge loop's break leaves accumulator '" + var->getNameAsString() +
                         "' unsettled: its value would depend on where each schedule stops; "
                         "test it in the condition or accumulate it in another loop");
      return false;
    }
  if (atomics || !edge.reductions_used.empty() || !edge.worklists_pushed.empty()) {
    context_.error(settle->getBeginLoc(),
                   "an edge loop that may stop early ('break') may only accumulate: its "
                   "atomics, pushes and reductions would run for some edges and not for others");
    return false;
  }
  edge.settle = CodeFragment::text(context_.text(condition->getSourceRange()),
                                   context_.loc(condition->getBeginLoc()));
  return true;
}

bool KernelBuilder::build_edge_loop(Scope& scope, const CXXForRangeStmt* loop, EdgeLoop& edge,
                                    Kernel& kernel) {
  const auto range = dsl::edge_range(loop);
  const VarDecl* edge_var = loop->getLoopVariable();
  edge.loc = context_.loc(loop->getBeginLoc());
  edge.header = context_.original_text(SourceRange(loop->getBeginLoc(), loop->getRParenLoc()));
  edge.edge_var = edge_var->getNameAsString();
  edge.graph = range->graph ? range->graph->getNameAsString() : "";
  edge.vertex = scope.vertex->getNameAsString();
  edge.direction = range->direction;
  if (!range->graph || range->graph != scope.graph) {
    context_.error(loop->getRangeInit()->getBeginLoc(),
                   "the edge loop must traverse the kernel's graph parameter");
    return false;
  }
  if (edge.direction == EdgeDirection::in) context_.graph_needs.in_edges = true;

  RegionVisitor visitor(context_, Region::edge, loop, scope.vertex, scope.iterated_worklist,
                        scope.is_lambda, scope.per_thread, scope.vertex_locals, edge_var,
                        edge.direction);
  const IfStmt* settle = settling_break(loop);
  visitor.skip(settle);
  visitor.TraverseStmt(const_cast<CXXForRangeStmt*>(loop));
  std::set<const Decl*> reported;
  check_pre_declaration_uses(scope, loop->getBody(), reported);
  for (const auto& f : visitor.fields_used) add_unique(kernel.fields_used, f);
  for (const auto& r : visitor.reductions_used) add_unique(kernel.reductions_used, r);
  for (const auto& w : visitor.worklists_pushed) add_unique(kernel.worklists_pushed, w);
  edge.reductions_used = visitor.reductions_used;
  edge.worklists_pushed = visitor.worklists_pushed;
  std::set<const FunctionDecl*> visited;
  edge.work_per_edge_varies = may_loop(loop->getBody(), context_.ast(), visited);

  // Vertex-loop variables written in the edge loop must be accumulations of
  // one kind; they may not be read there otherwise.
  std::map<const VarDecl*, AccumulatorOp> accumulators;
  std::set<const DeclRefExpr*> own_refs;
  bool ok = true;
  for (const LocalWrite& write : visitor.local_writes) {
    const auto op = match_accumulation(write.write, write.var, own_refs);
    const std::string name = write.var->getNameAsString();
    if (!op) {
      context_.error(write.write->getBeginLoc(),
                     "'" + name + "' is declared in the vertex loop and changed in its edge loop; "
                     "edge-parallel schedules support only accumulations there (" + name +
                     " += v, " + name + " |= v, " + name + " &= v, ++" + name + ", " + name +
                     " = min(" + name + ", v), " + name + " = max(" + name + ", v))");
      ok = false;
      continue;
    }
    auto [it, inserted] = accumulators.emplace(write.var, *op);
    if (!inserted && it->second != *op) {
      context_.error(write.write->getBeginLoc(), "'" + name + "' is accumulated with two "
                                                 "different operators in the edge loop");
      ok = false;
    }
  }
  for (const DeclRefExpr* ref : visitor.local_refs) {
    const auto* var = cast<VarDecl>(ref->getDecl());
    if (accumulators.count(var) && !own_refs.count(ref)) {
      context_.error(ref->getLocation(),
                     "'" + var->getNameAsString() + "' is read inside the edge loop that "
                     "accumulates into it; there it holds only part of the result");
      ok = false;
    }
  }
  if (!ok) return false;

  std::set<const VarDecl*> closure_seen;
  for (const DeclRefExpr* ref : visitor.local_refs) {
    const auto* var = cast<VarDecl>(ref->getDecl());
    if (accumulators.count(var) || !closure_seen.insert(var).second) continue;
    if (!check_closure_var(var, ref)) {
      ok = false;
      continue;
    }
    edge.closure.push_back({var->getNameAsString(), member_type_name(var)});
  }
  if (!ok) return false;
  for (const auto& [var, op] : accumulators) {
    const QualType type = var->getType().getNonReferenceType();
    const uint64_t bits = context_.ast().getTypeSize(type);
    if (!type->isArithmeticType() || type->isBooleanType() || (bits != 32 && bits != 64) ||
        ((op == AccumulatorOp::bit_or || op == AccumulatorOp::bit_and) && !type->isIntegerType())) {
      context_.error(var->getLocation(),
                     "accumulator '" + var->getNameAsString() + "' has type '" +
                         context_.type_name(type) +
                         "'; edge-loop accumulators are 32- or 64-bit numbers (integers for |= "
                         "and &=), so that partial values can be combined atomically");
      return false;
    }
    if (var->getType()->isReferenceType()) {
      context_.error(var->getLocation(),
                     "accumulator '" + var->getNameAsString() + "' is a reference; the edge "
                     "loop's partial values are combined into a copy, which the code after the "
                     "loop would have to write back: accumulate into a local variable and "
                     "assign it after the loop");
      return false;
    }
    Accumulator accumulator;
    accumulator.var = {var->getNameAsString(), member_type_name(var)};
    accumulator.op = op;
    accumulator.loc = context_.loc(var->getLocation());
    edge.accumulators.push_back(accumulator);
  }
  // Keep accumulators in declaration order for stable output.
  std::sort(edge.accumulators.begin(), edge.accumulators.end(),
            [](const Accumulator& a, const Accumulator& b) {
              return std::make_pair(a.loc.line, a.loc.column) < std::make_pair(b.loc.line, b.loc.column);
            });
  return !settle ||
         check_settling_break(context_, settle, accumulators, visitor.local_writes,
                              visitor.atomics > 0, edge);
}

std::optional<Kernel> KernelBuilder::build_kernel(const FunctionDecl* function) {
  Kernel kernel;
  kernel.name = function->getNameAsString();
  kernel.loc = context_.loc(function->getLocation());
  if (!function->getReturnType()->isVoidType())
    context_.error(function->getReturnTypeSourceRange().getBegin(),
                   "kernels return void; compute values with a reduction (Sum, Min, Max)");

  Scope scope;
  for (const ParmVarDecl* param : function->parameters()) {
    const QualType type = param->getType();
    KernelParam kp;
    kp.var.name = param->getNameAsString();
    if (dsl::is_graph(type)) {
      kp.kind = ParamKind::graph;
      kp.var.type = "Graph";
      scope.graph = param;
    } else if (dsl::is_worklist(type) && type->isLValueReferenceType()) {
      kp.kind = ParamKind::worklist;
      kp.var.type = "Worklist";
    } else if (dsl::is_task_pool(type) && type->isLValueReferenceType() &&
               !type.getNonReferenceType().isConstQualified()) {
      kp.kind = ParamKind::task_pool;
      kp.var.type = context_.type_name(dsl::template_argument(type));
    } else if (!type->isReferenceType() && !type->isPointerType() &&
               (type->isScalarType() || type->isEnumeralType())) {
      kp.kind = ParamKind::scalar;
      kp.var.type = context_.type_name(type.getUnqualifiedType());
    } else {
      context_.error(param->getLocation(),
                     "kernel parameter '" + kp.var.name +
                         "' has an unsupported type: kernels take the graph (const Graph&), "
                         "worklists (Worklist&), a task pool (TaskPool<T>&) and scalar values");
      continue;
    }
    scope.per_thread.insert(param);
    kernel.params.push_back(kp);
  }

  const auto* body = dyn_cast_or_null<CompoundStmt>(function->getBody());
  if (!body) {
    context_.error(function->getLocation(), "kernel '" + kernel.name + "' has no body");
    return std::nullopt;
  }
  const CXXForRangeStmt* vertex_loop = nullptr;
  std::vector<const Stmt*> prologue;
  for (const Stmt* stmt : body->body()) {
    const auto* loop = dyn_cast<CXXForRangeStmt>(stmt);
    const VarDecl* range_var = loop ? dsl::referenced_var(loop->getRangeInit()) : nullptr;
    const auto member = loop ? dsl::prelude_member_call(loop->getRangeInit()) : std::nullopt;
    const bool over_nodes = member && member->class_name == "Graph" && member->method == "nodes";
    const bool over_worklist = range_var && dsl::is_worklist(range_var->getType()) &&
                               isa<ParmVarDecl>(range_var);
    const bool over_pool = range_var && dsl::is_task_pool(range_var->getType()) &&
                           isa<ParmVarDecl>(range_var);
    if (over_nodes || over_worklist || over_pool) {
      if (vertex_loop) {
        context_.error(stmt->getBeginLoc(),
                       "a kernel holds one parallel vertex loop; put this loop in a kernel of "
                       "its own");
        return std::nullopt;
      }
      vertex_loop = loop;
      if (over_nodes && dsl::referenced_var(member->object) != scope.graph) {
        context_.error(loop->getRangeInit()->getBeginLoc(),
                       "the vertex loop must range over the kernel's graph parameter");
        return std::nullopt;
      }
      kernel.loop.domain = over_nodes      ? VertexDomain::all_nodes
                           : over_worklist ? VertexDomain::worklist
                                           : VertexDomain::tasks;
      kernel.loop.graph = scope.graph ? scope.graph->getNameAsString() : "";
      if (over_worklist) {
        kernel.loop.worklist = range_var->getNameAsString();
        scope.iterated_worklist = range_var;
      }
      if (over_pool) {  // the pool plays the iterated worklist's part
        kernel.loop.pool = range_var->getNameAsString();
        kernel.loop.task_type = context_.type_name(dsl::template_argument(range_var->getType()));
        scope.iterated_worklist = range_var;
      }
      continue;
    }
    if (vertex_loop) {
      context_.error(stmt->getBeginLoc(),
                     "statements after the vertex loop are not supported (every thread would "
                     "run them); move them into the loop or into another kernel");
      return std::nullopt;
    }
    prologue.push_back(stmt);
  }
  if (!vertex_loop) {
    context_.error(function->getLocation(),
                   "kernel '" + kernel.name + "' has no parallel loop: write 'for (Node n : "
                   "g.nodes())', 'for (Node n : worklist)' or 'for (T task : pool)'");
    return std::nullopt;
  }
  // A task pool is run by the loop over it: one per kernel, and only there
  // (a vertex loop may push to pools: it seeds them).
  for (const ParmVarDecl* param : function->parameters())
    if (kernel.loop.domain == VertexDomain::tasks && dsl::is_task_pool(param->getType()) &&
        param->getNameAsString() != kernel.loop.pool) {
      context_.error(param->getLocation(),
                     "task pool '" + param->getNameAsString() + "' is not the pool this "
                     "kernel's loop runs: a kernel takes one pool and runs it with 'for (T task : " +
                     param->getNameAsString() + ")'");
      return std::nullopt;
    }
  if (!scope.graph && kernel.loop.domain != VertexDomain::tasks) {
    context_.error(function->getLocation(),
                   "kernel '" + kernel.name + "' needs the graph as a parameter (const Graph& g)");
    return std::nullopt;
  }

  for (const Stmt* stmt : prologue) {
    RegionVisitor visitor(context_, Region::prologue, nullptr, nullptr, nullptr, false,
                          scope.per_thread, scope.vertex_locals, nullptr, EdgeDirection::out);
    visitor.TraverseStmt(const_cast<Stmt*>(stmt));
    if (const auto* decl = dyn_cast<DeclStmt>(stmt))
      for (const Decl* d : decl->decls())
        if (const auto* var = dyn_cast<VarDecl>(d)) {
          scope.per_thread.insert(var);
          kernel.prologue_vars.push_back(var->getNameAsString());
        }
  }

  scope.vertex = vertex_loop->getLoopVariable();
  kernel.loop.vertex_var = scope.vertex->getNameAsString();
  kernel.loop.loc = context_.loc(vertex_loop->getBeginLoc());
  kernel.loop.header = context_.original_text(
      SourceRange(vertex_loop->getBeginLoc(), vertex_loop->getRParenLoc()));
  checker_.check_kernel_code(body);
  scope.kernel_code = body;
  if (!build_vertex_loop(scope, vertex_loop, vertex_loop->getBody(), kernel.loop, kernel))
    return std::nullopt;
  for (const Stmt* stmt : prologue) kernel.prologue.push_back(context_.fragment(stmt));
  if (context_.has_errors()) return std::nullopt;
  return kernel;
}

std::optional<Kernel> KernelBuilder::build_for_all_nodes(const CallExpr* call,
                                                         const std::string& name,
                                                         std::vector<std::string>& captured) {
  const VarDecl* graph = call->getNumArgs() == 2 ? dsl::referenced_var(call->getArg(0)) : nullptr;
  if (!graph || !dsl::is_graph(graph->getType())) {
    context_.error(call->getBeginLoc(), "for_all_nodes takes the program's graph first");
    return std::nullopt;
  }
  const auto* lambda = dyn_cast<LambdaExpr>(dsl::strip(call->getArg(1)));
  if (!lambda || lambda->getCallOperator()->getNumParams() != 1) {
    context_.error(call->getArg(1)->getBeginLoc(),
                   "for_all_nodes takes a lambda with one vertex parameter: [&](Node n) { ... }");
    return std::nullopt;
  }
  Kernel kernel;
  kernel.name = name;
  kernel.loc = context_.loc(call->getBeginLoc());
  kernel.from_for_all_nodes = true;
  kernel.params.push_back({ParamKind::graph, {graph->getNameAsString(), "Graph"}});

  Scope scope;
  scope.graph = graph;
  scope.is_lambda = true;
  scope.vertex = lambda->getCallOperator()->getParamDecl(0);
  for (const LambdaCapture& capture : lambda->captures()) {
    if (!capture.capturesVariable()) continue;
    const auto* var = dyn_cast<VarDecl>(capture.getCapturedVar());
    if (!var || var == graph) continue;
    const QualType type = var->getType().getNonReferenceType();
    if (!type->isScalarType() || type->isPointerType()) {
      context_.error(capture.getLocation(),
                     "for_all_nodes body uses '" + var->getNameAsString() +
                         "', which cannot be passed to the GPU (only the graph and scalar "
                         "values can)");
      continue;
    }
    if (is_body_member_name(var->getNameAsString()))
      context_.error(capture.getLocation(),
                     "'" + var->getNameAsString() + "' is reserved in for_all_nodes bodies: the "
                     "generated Body struct, which holds the values they use, has a member of "
                     "this name; choose another name");
    kernel.params.push_back({ParamKind::scalar,
                             {var->getNameAsString(), context_.type_name(type.getUnqualifiedType())}});
    kernel.captures_alike = kernel.captures_alike && same_in_every_process(var, context_.ast());
    scope.per_thread.insert(var);
    captured.push_back(var->getNameAsString());
  }
  kernel.loop.domain = VertexDomain::all_nodes;
  kernel.loop.graph = graph->getNameAsString();
  kernel.loop.vertex_var = scope.vertex->getNameAsString();
  kernel.loop.loc = kernel.loc;
  kernel.loop.header = "for_all_nodes(" + kernel.loop.graph + ", [&](Node " + kernel.loop.vertex_var + ") ...)";
  checker_.check_kernel_code(lambda->getBody());
  scope.kernel_code = lambda->getBody();
  if (!build_vertex_loop(scope, call, lambda->getBody(), kernel.loop, kernel)) return std::nullopt;
  return kernel;
}

}  // namespace irglc
