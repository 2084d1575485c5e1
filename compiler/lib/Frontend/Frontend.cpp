//===- Frontend.cpp - .irgl source to IR -----------------------------------===//

#include "irglc/Frontend/Frontend.h"

#include <algorithm>

#include "DeviceCodeChecker.h"
#include "DriverBuilder.h"
#include "DslModel.h"
#include "FrontendContext.h"
#include "KernelBuilder.h"
#include "ReservedNames.h"
#include "SchedulePragma.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"

namespace irglc {

using namespace clang;

namespace {

// Records the main file's #include and #define lines for the generated code.
class DirectiveRecorder : public PPCallbacks {
 public:
  DirectiveRecorder(SourceManager& sources, Module& module) : sources_(sources), module_(module) {}

  void InclusionDirective(SourceLocation hash, const Token&, StringRef file_name, bool angled,
                          CharSourceRange, const FileEntry*, StringRef, StringRef,
                          const clang::Module*, SrcMgr::CharacteristicKind) override {
    if (!sources_.isInMainFile(hash) || file_name == "irgl.h") return;
    module_.includes.push_back(angled ? "<" + file_name.str() + ">" : "\"" + file_name.str() + "\"");
  }

  void MacroDefined(const Token& name, const MacroDirective* directive) override {
    const SourceLocation where = directive->getLocation();
    // Built-in and command-line macros live in other buffers.
    if (!where.isFileID() || sources_.getFileID(where) != sources_.getMainFileID()) return;
    // The whole #define line, with backslash continuations.
    const StringRef buffer = sources_.getBufferData(sources_.getMainFileID());
    size_t start = buffer.rfind('\n', sources_.getFileOffset(where));
    start = start == StringRef::npos ? 0 : start + 1;
    size_t end = start;
    do {
      end = buffer.find('\n', end + 1);
      if (end == StringRef::npos) end = buffer.size();
    } while (end > 0 && end < buffer.size() && buffer[end - 1] == '\\');
    module_.macros.push_back(buffer.slice(start, end).rtrim().str());
  }

 private:
  SourceManager& sources_;
  Module& module_;
};

// Builds the Module from the parsed translation unit.
class ModuleBuilder : public ASTConsumer {
 public:
  ModuleBuilder(Module& module, std::vector<SchedulePragma>& pragmas, bool& ok)
      : module_(module), pragmas_(pragmas), ok_(ok) {}

  void HandleTranslationUnit(ASTContext& ast) override {
    if (ast.getDiagnostics().hasErrorOccurred()) return;  // Clang already reported
    FrontendContext context(ast, pragmas_);
    classify_declarations(ast, context);
    if (context.has_errors()) return;
    check_reserved_names(ast, context);

    DeviceCodeChecker checker(context);
    KernelBuilder kernels(context, checker);
    for (const FunctionDecl* kernel : kernel_decls_)
      if (auto built = kernels.build_kernel(kernel)) module_.kernels.push_back(std::move(*built));
    DriverBuilder driver(context, kernels);
    std::vector<Kernel> for_all_kernels;
    if (auto built = driver.build(context.program_decl, for_all_kernels)) module_.driver = *built;
    for (auto& kernel : for_all_kernels) module_.kernels.push_back(std::move(kernel));
    checker.check_recursion();
    if (module_.driver.graph_param.empty() && !context.has_errors())
      check_program_without_graph(context);
    for (const SchedulePragma& pragma : context.pragmas())
      if (!pragma.used)
        context.error(pragma.loc, "'#pragma irgl schedule' must come right before a vertex "
                                  "loop or its edge loop");
    if (context.has_errors()) return;

    std::stable_sort(module_.kernels.begin(), module_.kernels.end(),
                     [](const Kernel& a, const Kernel& b) { return a.loc.line < b.loc.line; });
    copy_user_declarations(context);
    module_.program_name = module_.driver.name;
    module_.graph_needs = context.graph_needs;
    module_.graph_needs.in_edges |= checker.needs.in_edges;
    module_.graph_needs.weights = checker.needs.weights;
    ok_ = !context.has_errors();
  }

 private:
  void classify_declarations(ASTContext& ast, FrontendContext& context) {
    for (Decl* decl : ast.getTranslationUnitDecl()->decls()) {
      if (!context.in_main_file(decl->getLocation()) || decl->isImplicit()) continue;
      if (isa<UsingDirectiveDecl>(decl) || isa<EmptyDecl>(decl)) {
        user_decls_.push_back(decl);
        continue;
      }
      if (const auto* function = dyn_cast<FunctionDecl>(decl)) {
        if (dsl::is_kernel(function) || dsl::is_program(function)) {
          if (!function->doesThisDeclarationHaveABody()) continue;  // a declaration only
          if (dsl::is_kernel(function)) {
            kernel_decls_.push_back(function);
            context.kernel_decls.insert(function);
          } else if (context.program_decl) {
            context.error(function->getLocation(), "a second program function; a .irgl file "
                                                   "holds one program");
            context.note(context.program_decl->getLocation(), "the first one is here");
          } else {
            context.program_decl = function;
          }
          continue;
        }
      }
      if (const auto* var = dyn_cast<VarDecl>(decl)) {
        const QualType type = var->getType();
        if (dsl::is_node_data(type) || dsl::is_array(type)) {
          check_element_type(context, var);
          context.fields[var] = var->getNameAsString();
          Field field{var->getNameAsString(), context.type_name(dsl::template_argument(type)),
                      context.loc(var->getLocation())};
          field.per_vertex = dsl::is_node_data(type);
          module_.fields.push_back(field);
          continue;
        }
        if (auto op = dsl::reduction_op(type)) {
          check_reduction_type(context, var);
          context.reductions[var] = var->getNameAsString();
          module_.reductions.push_back({var->getNameAsString(),
                                        context.type_name(dsl::template_argument(type)), *op,
                                        context.loc(var->getLocation())});
          continue;
        }
        if (dsl::is_graph(type) || dsl::is_worklist(type) || dsl::is_pipe(type) ||
            dsl::is_task_pool(type)) {
          context.error(var->getLocation(), "graphs, worklists, pipes and task pools cannot be "
                                            "file-scope variables; the driver owns them");
          continue;
        }
      }
      user_decls_.push_back(decl);
    }
    if (!context.program_decl)
      context.error(context.sources().getLocForStartOfFile(context.sources().getMainFileID()),
                    "no program function: mark the host driver with 'program', e.g. "
                    "'program void bfs(Graph& g, Node source = 0) { ... }'");
  }

  // A program without a graph has no vertices: vertex data and vertex
  // loops need one.
  void check_program_without_graph(FrontendContext& context) {
    const std::string program = context.program_decl->getNameAsString();
    for (const auto& [var, name] : context.fields)
      if (dsl::is_node_data(var->getType()))
        context.error(var->getLocation(),
                      "vertex data '" + name + "' needs a graph, and program '" + program +
                          "' takes none: make its first parameter 'Graph& g', or hold the data "
                          "in an Array");
    for (const FunctionDecl* function : kernel_decls_) {
      const Kernel* kernel = module_.find_kernel(function->getNameAsString());
      if (kernel && kernel->loop.domain != VertexDomain::tasks)
        context.error(function->getLocation(),
                      "kernel '" + kernel->name + "' loops over vertices, and program '" +
                          program + "' takes no graph: make its first parameter 'Graph& g'");
    }
  }

  // Names that would collide with what the generated code defines or uses.
  void check_reserved_names(ASTContext& ast, FrontendContext& context) {
    std::vector<std::string> kernels;
    for (const FunctionDecl* kernel : kernel_decls_) kernels.push_back(kernel->getNameAsString());
    std::set<std::string> data;
    for (const auto& [var, name] : context.fields) data.insert(name);
    for (const auto& [var, name] : context.reductions) data.insert(name);
    const ReservedNames reserved(kernels, context.program_decl->getNameAsString(), data);
    reserved.check_file_scope(context, ast.getTranslationUnitDecl());
    reserved.check_program(context, kernel_decls_, context.program_decl);
  }

  // Vertex data lives in a std::vector zeroed with T{} on the CPU, and as
  // bytes copied and zeroed with memset on the GPU: the element type must be
  // an object type for which these mean the same.
  static void check_element_type(FrontendContext& context, const VarDecl* var) {
    const QualType element = dsl::template_argument(var->getType());
    if (element.isNull()) return;
    std::string problem;
    if (element->isReferenceType() || element->isFunctionType() || element->isVoidType())
      problem = "it is not an object type";
    else if (element->isArrayType())
      problem = "an array cannot be assigned or copied; wrap it in a struct";
    else if (element.isConstQualified() || element.isVolatileQualified())
      problem = "vertex data is written: drop the qualifier";
    else if (element->isIncompleteType())
      problem = "it is incomplete here; define it before the NodeData";
    else if (!element.isTriviallyCopyableType(context.ast()))
      problem = "it is not trivially copyable (the GPU copies vertex data as bytes)";
    else if (!element.isTrivialType(context.ast()))
      problem = "it has a default constructor or default member initializers, but vertex data "
                "starts as zero bytes";
    if (problem.empty()) return;
    context.error(element_loc(var), std::string(dsl::is_array(var->getType()) ? "an Array"
                                                                              : "vertex data") +
                                        " cannot hold '" + context.type_name(element) +
                                        "': " + problem);
  }

  // Reductions are combined with 32- and 64-bit atomics on the GPU.
  static void check_reduction_type(FrontendContext& context, const VarDecl* var) {
    const QualType value = dsl::template_argument(var->getType());
    if (value.isNull()) return;
    const QualType type = value.getCanonicalType().getUnqualifiedType();
    const bool floating = type->isSpecificBuiltinType(BuiltinType::Float) ||
                          type->isSpecificBuiltinType(BuiltinType::Double);
    const bool number = type->isArithmeticType() && !type->isBooleanType() &&
                        (!type->isRealFloatingType() || floating);
    const uint64_t bits = number ? context.ast().getTypeSize(type) : 0;
    if (bits == 32 || bits == 64) return;
    context.error(element_loc(var), "reduction '" + var->getNameAsString() + "' has type '" +
                                        context.type_name(value) +
                                        "'; reductions are 32- or 64-bit numbers, combined "
                                        "atomically on the GPU");
  }

  // Where `NodeData<T> x;` writes T, else where it names x.
  static SourceLocation element_loc(const VarDecl* var) {
    if (const TypeSourceInfo* info = var->getTypeSourceInfo()) {
      TypeLoc loc = info->getTypeLoc();
      if (auto elaborated = loc.getAs<ElaboratedTypeLoc>()) loc = elaborated.getNamedTypeLoc();
      if (auto spec = loc.getAs<TemplateSpecializationTypeLoc>(); spec && spec.getNumArgs() > 0)
        return spec.getArgLoc(0).getLocation();
    }
    return var->getLocation();
  }

  // A function taking a pipe or a task pool serves the driver only (a
  // kernel holds neither), so it stays a host function.
  static bool serves_the_driver(const FunctionDecl* function) {
    for (const ParmVarDecl* param : function->parameters())
      if (dsl::is_pipe(param->getType()) || dsl::is_task_pool(param->getType()))
        return true;
    return false;
  }

  // Marks a function (or a class's methods, or a namespace's functions) for
  // host and device.
  void mark_host_device(const Decl* decl, FrontendContext& context) {
    auto mark = [&](const FunctionDecl* function) {
      // Declarations too (nvcc warns when a __host__ declaration is defined
      // __host__ __device__), but only of functions this file defines.
      const FunctionDecl* definition = function->getDefinition();
      if (function->isImplicit() || !definition ||
          !context.in_main_file(definition->getLocation()) || serves_the_driver(definition))
        return;
      context.rewriter().InsertTextBefore(
          context.sources().getExpansionLoc(function->getInnerLocStart()), "IRGL_HD ");
    };
    if (const auto* ns = dyn_cast<NamespaceDecl>(decl)) {
      for (const Decl* member : ns->decls()) mark_host_device(member, context);
      return;
    }
    if (const auto* function = dyn_cast<FunctionDecl>(decl)) mark(function);
    if (const auto* tmpl = dyn_cast<FunctionTemplateDecl>(decl)) mark(tmpl->getTemplatedDecl());
    const CXXRecordDecl* record = dyn_cast<CXXRecordDecl>(decl);
    if (const auto* tmpl = dyn_cast<ClassTemplateDecl>(decl)) record = tmpl->getTemplatedDecl();
    if (record)
      for (const Decl* member : record->decls()) {
        if (const auto* method = dyn_cast<CXXMethodDecl>(member)) mark(method);
        if (const auto* tmpl = dyn_cast<FunctionTemplateDecl>(member)) mark(tmpl->getTemplatedDecl());
      }
  }

  void copy_user_declarations(FrontendContext& context) {
    for (const Decl* decl : user_decls_) mark_host_device(decl, context);
    for (const Decl* decl : user_decls_) {
      UserDecl user;
      user.is_function = isa<FunctionDecl>(decl) || isa<FunctionTemplateDecl>(decl);
      SourceRange range = decl->getSourceRange();
      user.code = CodeFragment::text(declaration_text(context, range),
                                     context.loc(range.getBegin()));
      module_.decls.push_back(std::move(user));
    }
  }

  // A declaration's text including the ';' that ends variable and class
  // declarations (Clang's ranges stop before it).
  static std::string declaration_text(FrontendContext& context, SourceRange range) {
    std::string code = context.text(range);
    SourceManager& sources = context.sources();
    const SourceLocation end = Lexer::getLocForEndOfToken(sources.getExpansionLoc(range.getEnd()),
                                                          0, sources, context.ast().getLangOpts());
    const auto next = Lexer::findNextToken(
        end.getLocWithOffset(-1), sources, context.ast().getLangOpts());
    if (next && next->is(tok::semi) && (code.empty() || code.back() != ';')) code += ';';
    return code;
  }

  Module& module_;
  std::vector<SchedulePragma>& pragmas_;
  bool& ok_;
  std::vector<const FunctionDecl*> kernel_decls_;
  std::vector<const Decl*> user_decls_;
};

class IrglAction : public ASTFrontendAction {
 public:
  IrglAction(Module& module, bool& ok) : module_(module), ok_(ok) {}

  bool BeginSourceFileAction(CompilerInstance& compiler) override {
    Preprocessor& preprocessor = compiler.getPreprocessor();
    preprocessor.AddPragmaHandler("irgl", new SchedulePragmaHandler(pragmas_));
    preprocessor.addPPCallbacks(
        std::make_unique<DirectiveRecorder>(compiler.getSourceManager(), module_));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, StringRef) override {
    return std::make_unique<ModuleBuilder>(module_, pragmas_, ok_);
  }

 private:
  Module& module_;
  bool& ok_;
  std::vector<SchedulePragma> pragmas_;
};

}  // namespace

std::optional<Module> parse_program(const FrontendOptions& options) {
  std::vector<std::string> args = {"irglc", "-fsyntax-only", "-x", "c++", "-std=c++17",
                                   "-D__IRGLC__", "-Wall", "-Wno-unused-variable"};
  if (!options.clang_resource_dir.empty()) {
    args.push_back("-resource-dir");
    args.push_back(options.clang_resource_dir);
  }
  args.push_back("-I" + options.prelude_dir);
  for (const auto& dir : options.include_dirs) args.push_back("-I" + dir);
  for (const auto& define : options.defines) args.push_back("-D" + define);
  args.push_back(options.input);

  Module module;
  module.source_file = options.input;
  bool ok = false;
  llvm::IntrusiveRefCntPtr<FileManager> files(new FileManager(FileSystemOptions()));
  tooling::ToolInvocation invocation(args, std::make_unique<IrglAction>(module, ok), files.get());
  const bool parsed = invocation.run();
  if (!parsed || !ok) return std::nullopt;
  return module;
}

}  // namespace irglc
