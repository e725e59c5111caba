/**
 * The types a package's public signatures name but none of its entries exports. The TypeScript compiler
 * reads the entries' built .d.ts files; from every symbol an entry exports, the walk follows each type
 * its declaration names (a type reference, a heritage clause, a `typeof x` query, an `import('…').X`
 * type), and from there the declarations of those, to the end. A named type declared inside `root` (the
 * package's dist/) that no entry exports is reported with the first public name that reaches it; types
 * from TypeScript's lib, @types/node and dependencies (zod) are the user's to import and are not followed.
 */
import path from 'node:path';
import ts from 'typescript';

export interface UnexportedType {
  /** The type's name and its declaration file, relative to `root`. */
  type: string;
  /** The public export (`entry:name`) or the unexported type whose declaration names it. */
  namedBy: string;
}

/** `types`: the @types packages the declarations need (Node's, for a package on Node). */
export function unexportedTypes(entries: string[], root: string, types = ['node']): UnexportedType[] {
  const program = ts.createProgram(entries, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types,
  });
  const checker = program.getTypeChecker();
  const inRoot = (node: ts.Node) => path.resolve(node.getSourceFile().fileName).startsWith(root + path.sep);
  const target = (symbol: ts.Symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const where = (node: ts.Node) => path.relative(root, node.getSourceFile().fileName);

  const exported = new Map<ts.Symbol, string>();
  for (const entry of entries) {
    const file = program.getSourceFile(entry);
    const module = file && checker.getSymbolAtLocation(file);
    if (!module) throw new Error(`${entry} is not a module the compiler can read`);
    for (const symbol of checker.getExportsOfModule(module))
      if (!exported.has(target(symbol))) exported.set(target(symbol), `${where(file)}:${symbol.name}`);
  }

  const found = new Map<string, UnexportedType>();
  const visited = new Set<ts.Symbol>();
  const queue: Array<{ symbol: ts.Symbol; label: string }> = [...exported].map(([symbol, label]) => ({
    symbol,
    label,
  }));
  const report = (type: string, namedBy: string) => {
    if (!found.has(type)) found.set(type, { type, namedBy });
  };
  while (queue.length > 0) {
    const { symbol, label } = queue.shift() as { symbol: ts.Symbol; label: string };
    if (visited.has(symbol)) continue;
    visited.add(symbol);
    for (const declaration of symbol.declarations ?? []) {
      if (!inRoot(declaration)) continue;
      const visit = (node: ts.Node): void => {
        let name: ts.Node | undefined;
        if (ts.isTypeReferenceNode(node)) name = node.typeName;
        else if (ts.isExpressionWithTypeArguments(node)) name = node.expression;
        else if (ts.isTypeQueryNode(node)) name = node.exprName;
        else if (ts.isImportTypeNode(node)) {
          name = node.qualifier;
          // `typeof import('../module.js')`: a whole module of the package, named by no entry.
          if (!name && node.isTypeOf) report(`typeof ${node.argument.getText()}`, label);
        }
        if (name) {
          const last = ts.isQualifiedName(name)
            ? name.right
            : ts.isPropertyAccessExpression(name)
              ? name.name
              : name;
          const symbolAt = checker.getSymbolAtLocation(last);
          const named = symbolAt && target(symbolAt);
          if (
            named &&
            !(named.flags & ts.SymbolFlags.TypeParameter) &&
            (named.declarations ?? []).some(inRoot)
          ) {
            const first = (named.declarations ?? []).find(inRoot) as ts.Declaration;
            if (!exported.has(named)) report(`${named.name} (${where(first)})`, label);
            queue.push({ symbol: named, label: exported.get(named) ?? named.name });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(declaration);
    }
  }
  return [...found.values()];
}
