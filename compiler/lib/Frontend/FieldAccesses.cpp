//===- FieldAccesses.cpp - How a vertex loop reads and writes vertex data -===//

#include "FieldAccesses.h"

#include <set>

#include "DslModel.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace irglc {

using namespace clang;

namespace {

FieldUpdate update_of_atomic(const std::string& name) {
  if (name == "atomic_min") return FieldUpdate::min;
  if (name == "atomic_max") return FieldUpdate::max;
  if (name == "atomic_add" || name == "atomic_sub") return FieldUpdate::add;
  if (name == "atomic_cas") return FieldUpdate::claim;
  return FieldUpdate::other;
}

FieldUpdate update_of_assignment(BinaryOperatorKind op) {
  switch (op) {
    case BO_Assign: return FieldUpdate::assign;
    case BO_AddAssign:
    case BO_SubAssign: return FieldUpdate::add;
    default: return FieldUpdate::other;
  }
}

// Visits parents before children, so a write's target is known as one
// before the visit reaches the target's subscript.
class AccessVisitor : public RecursiveASTVisitor<AccessVisitor> {
 public:
  AccessVisitor(FrontendContext& context, const VarDecl* vertex,
                const CXXForRangeStmt* edge_loop)
      : context_(context), vertex_(vertex) {
    if (!edge_loop) return;
    const auto range = dsl::edge_range(edge_loop);
    if (!range || range->direction != EdgeDirection::out) return;
    graph_ = range->graph;
    out_edge_ = edge_loop->getLoopVariable();
  }

  bool VisitCallExpr(CallExpr* call) {
    const std::string name = dsl::prelude_function(call);
    if (name == "atomic_cas" && call->getNumArgs() > 1 && !is_inf(call->getArg(1)))
      write(call->getArg(0), FieldUpdate::other, "atomic_cas from a value other than INF",
            used(call), call->getBeginLoc());
    else if (name.rfind("atomic_", 0) == 0 && call->getNumArgs() > 0)
      write(call->getArg(0), update_of_atomic(name), name, used(call), call->getBeginLoc());
    else if (const FunctionDecl* callee = call->getDirectCallee(); callee && name.empty())
      by_reference(call, callee);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator* op) {
    if (op->isAssignmentOp())
      write(op->getLHS(), update_of_assignment(op->getOpcode()), op->getOpcodeStr().str(), false,
            op->getOperatorLoc());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator* op) {
    if (op->isIncrementDecrementOp())
      write(op->getSubExpr(), FieldUpdate::add, UnaryOperator::getOpcodeStr(op->getOpcode()).str(),
            false, op->getOperatorLoc());
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl()); var && dsl::is_graph(var->getType()))
      uses_graph = true;
    return true;
  }

  // A non-const method called on a field element changes it.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr* call) {
    const auto member = dsl::prelude_member_call(call);
    const bool push = member && member->class_name == "Worklist" && member->method == "push";
    const bool at_destination = push && call->getNumArgs() == 1 && out_edge_destination(call->getArg(0));
    if (push && !at_destination) pushes_at_out_edge_destinations = false;
    if (push) {
      ++pushes_;
      if (at_destination && follows_min_decrease(call)) ++decreasing_pushes_;
    }
    const CXXMethodDecl* method = call->getMethodDecl();
    if (method && !method->isConst())
      write(call->getImplicitObjectArgument(), FieldUpdate::other,
            "its method " + method->getNameAsString() + "()", false, call->getExprLoc());
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* call) {
    if (call->isAssignmentOp() && call->getNumArgs() > 0)
      write(call->getArg(0), FieldUpdate::other, "operator=", false, call->getOperatorLoc());
    if (auto access = dsl::field_access(call); access && !targets_.count(call))
      record(*access, FieldUpdate::none, "", false, call->getBeginLoc());
    return true;
  }

  std::vector<FieldAccess> accesses;
  bool pushes_at_out_edge_destinations = true;
  bool uses_graph = false;
  bool pushes_follow_min_decrease() const { return pushes_ > 0 && decreasing_pushes_ == pushes_; }

 private:
  // Whether `push` sits in the then-branch of an `if`, inside the loop,
  // whose condition holds only after atomic_min lowered the pushed
  // destination's value (min_decrease, through && only).
  bool follows_min_decrease(const Stmt* push) {
    const Stmt* child = push;
    for (;;) {
      const auto parents = context_.ast().getParents(*child);
      if (parents.empty()) return false;
      const Stmt* parent = parents[0].get<Stmt>();
      if (!parent || isa<CXXForRangeStmt>(parent) || isa<ForStmt>(parent) ||
          isa<WhileStmt>(parent) || isa<DoStmt>(parent))
        return false;
      if (const auto* branch = dyn_cast<IfStmt>(parent);
          branch && branch->getThen() == child && decreases(branch->getCond()))
        return true;
      child = parent;
    }
  }
  bool decreases(const Expr* condition) const {
    const auto* op = dyn_cast<BinaryOperator>(dsl::strip(condition));
    if (!op) return false;
    switch (op->getOpcode()) {
      case BO_LAnd: return decreases(op->getLHS()) || decreases(op->getRHS());
      case BO_GT: return min_decrease(op->getLHS(), op->getRHS());
      case BO_LT: return min_decrease(op->getRHS(), op->getLHS());
      default: return false;
    }
  }
  // `atomic_min(f[d], c) > c`: d the out-edge's destination, c a const
  // local on both sides (the old value above c: this call lowered it).
  bool min_decrease(const Expr* old_value, const Expr* value) const {
    const auto* call = dyn_cast<CallExpr>(dsl::strip(old_value));
    if (!call || dsl::prelude_function(call) != "atomic_min" || call->getNumArgs() != 2) return false;
    const auto access = dsl::field_access(dsl::strip(call->getArg(0)));
    if (!access || !out_edge_destination(access->index)) return false;
    const VarDecl* lowered_to = dsl::referenced_var(call->getArg(1));
    return lowered_to && lowered_to->getType().isConstQualified() &&
           lowered_to == dsl::referenced_var(value);
  }

  unsigned pushes_ = 0, decreasing_pushes_ = 0;
  // `g.dst(e)` of the loop's out-edge e, or a const local initialised with
  // it (a local that may change later could name another vertex).
  bool out_edge_destination(const Expr* index) const {
    if (!out_edge_) return false;
    index = dsl::strip(index);
    if (const VarDecl* var = dsl::referenced_var(index)) {
      if (!var->getType().isConstQualified() || !var->hasInit()) return false;
      index = dsl::strip(var->getInit());
    }
    const auto member = dsl::prelude_member_call(index);
    if (!member || member->class_name != "Graph" || member->method != "dst" ||
        dsl::referenced_var(member->object) != graph_)
      return false;
    const auto* call = cast<CXXMemberCallExpr>(index);
    return call->getNumArgs() == 1 && dsl::referenced_var(call->getArg(0)) == out_edge_;
  }

  // A write to `target`: a field element, or a member of one.
  void write(const Expr* target, FieldUpdate update, const std::string& spelling, bool result_used,
             SourceLocation where) {
    const Expr* e = dsl::strip(target);
    while (const auto* member = dyn_cast<MemberExpr>(e)) {  // f[n].x = ...
      e = dsl::strip(member->getBase());
      update = FieldUpdate::other;
    }
    const auto access = dsl::field_access(e);
    if (!access) return;
    targets_.insert(dsl::strip(e));
    record(*access, update, spelling, result_used, where);
  }

  // The prelude's INF: a claim from it (atomic_cas(f[v], INF, x)) only lowers
  // the value, so the GPUs' claims combine by min; a claim from another
  // value has no such order.
  static bool is_inf(const Expr* expected) {
    const VarDecl* var = dsl::referenced_var(expected);
    return var && dsl::in_prelude(var) && var->getName() == "INF";
  }

  // A field element passed to a non-const reference parameter. An
  // operator that is a method takes its object as argument 0, which no
  // parameter declares (as KernelBuilder's write check counts them).
  void by_reference(const CallExpr* call, const FunctionDecl* callee) {
    const unsigned first = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(callee) ? 1 : 0;
    for (unsigned i = first; i < call->getNumArgs() && i - first < callee->getNumParams(); ++i) {
      const QualType type = callee->getParamDecl(i - first)->getType();
      if (type->isReferenceType() && !type.getNonReferenceType().isConstQualified())
        write(call->getArg(i), FieldUpdate::other, callee->getNameAsString(), false,
              call->getBeginLoc());
    }
  }

  void record(const dsl::FieldAccess& access, FieldUpdate update, const std::string& spelling,
              bool result_used, SourceLocation where) {
    auto it = context_.fields.find(access.field);
    if (it == context_.fields.end()) return;
    FieldAccess out;
    out.field = it->second;
    out.update = update;
    out.at_loop_vertex = vertex_ && dsl::referenced_var(access.index) == vertex_;
    out.at_out_edge_destination = out_edge_destination(access.index);
    out.result_used = result_used;
    out.spelling = spelling;
    out.loc = context_.loc(where);
    accesses.push_back(std::move(out));
  }

  // Whether the value of `call` is read: anything but a statement of its own.
  bool used(const Expr* call) {
    const Stmt* child = call;
    for (;;) {
      const auto parents = context_.ast().getParents(*child);
      if (parents.empty()) return false;
      const Stmt* parent = parents[0].get<Stmt>();
      if (!parent) return true;  // a declaration's initialiser
      if (isa<ExprWithCleanups>(parent) || isa<ParenExpr>(parent)) {
        child = parent;
        continue;
      }
      if (const auto* cast = dyn_cast<CStyleCastExpr>(parent))
        return !cast->getType()->isVoidType();
      if (isa<CompoundStmt>(parent)) return false;
      if (const auto* branch = dyn_cast<IfStmt>(parent)) return branch->getCond() == child;
      if (const auto* loop = dyn_cast<WhileStmt>(parent)) return loop->getCond() == child;
      if (const auto* loop = dyn_cast<DoStmt>(parent)) return loop->getCond() == child;
      if (const auto* loop = dyn_cast<ForStmt>(parent)) return loop->getCond() == child;
      return isa<Expr>(parent);
    }
  }

  FrontendContext& context_;
  const VarDecl* vertex_;
  const VarDecl* graph_ = nullptr;     // the out-edge loop's graph
  const VarDecl* out_edge_ = nullptr;  // its edge variable
  std::set<const Expr*> targets_;
};

}  // namespace

LoopAccesses loop_accesses(FrontendContext& context, const Stmt* body, const VarDecl* vertex,
                           const CXXForRangeStmt* edge_loop) {
  AccessVisitor visitor(context, vertex, edge_loop);
  visitor.TraverseStmt(const_cast<Stmt*>(body));
  return {std::move(visitor.accesses), visitor.pushes_at_out_edge_destinations,
          visitor.uses_graph, visitor.pushes_follow_min_decrease()};
}

}  // namespace irglc
