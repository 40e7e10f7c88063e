/**
 * SQL lives in src/core/store: anywhere else, no import of better-sqlite3 (types included: the
 * store's `Db` is the one handle other code holds) and no `prepare`, `exec`, `pragma` or
 * `transaction` on a value whose TypeScript type is better-sqlite3's Database. The type comes
 * from typescript-eslint's parser services, so `regex.exec(text)` or a child process's `exec`
 * are not mistaken for SQL. Registered for the files it applies to in eslint.config.js.
 */

const DEFAULT_METHODS = ['prepare', 'exec', 'pragma', 'transaction'];
const BETTER_SQLITE3 = /^better-sqlite3(\/|$)/;
const DECLARED_BY_BETTER_SQLITE3 = /[\\/]node_modules[\\/](@types[\\/])?better-sqlite3[\\/]/;

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'SQL only in src/core/store: no better-sqlite3 import and no database methods elsewhere.' },
    schema: [
      {
        type: 'object',
        properties: {
          methods: { type: 'array', items: { type: 'string' } },
          allowTypeImports: { type: 'boolean' },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      import:
        "Only src/core/store imports better-sqlite3. Hold the database as the store's `Db` (import type { Db } from '…/store/database') and call its queries.",
      method:
        'SQL runs only in src/core/store: db.{{method}}() belongs in a named query in src/core/store/queries/<domain>.ts; call that query here.',
    },
  },

  create(context) {
    const options = context.options[0] ?? {};
    const methods = new Set(options.methods ?? DEFAULT_METHODS);
    const allowTypeImports = options.allowTypeImports ?? false;
    const services = context.sourceCode.parserServices;
    // Without type information (plain .js files) only the import is checked.
    const typed = services?.program != null && typeof services.getTypeAtLocation === 'function';

    /** True when `type` (or a member of its union, its constraint…) is better-sqlite3's Database. */
    function isDatabase(type, seen = new Set()) {
      if (!type || seen.has(type)) return false;
      seen.add(type);
      if (type.isUnionOrIntersection()) return type.types.some((t) => isDatabase(t, seen));
      if (type.isTypeParameter()) {
        const constraint = services.program.getTypeChecker().getBaseConstraintOfType(type);
        return constraint != null && isDatabase(constraint, seen);
      }
      const symbol = type.getSymbol() ?? type.aliasSymbol;
      if (!symbol || symbol.getName() !== 'Database') return false;
      return (symbol.getDeclarations() ?? []).some((d) => DECLARED_BY_BETTER_SQLITE3.test(d.getSourceFile().fileName));
    }

    const onDatabase = (node) => typed && isDatabase(services.getTypeAtLocation(node));

    function memberName(node) {
      if (!node.computed && node.property.type === 'Identifier') return node.property.name;
      if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string') {
        return node.property.value;
      }
      return null;
    }

    function checkSource(node, source, typeOnly) {
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !BETTER_SQLITE3.test(source.value)) return;
      if (typeOnly && allowTypeImports) return;
      context.report({ node, messageId: 'import' });
    }

    return {
      ImportDeclaration(node) {
        const typeOnly =
          node.importKind === 'type' ||
          (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
        checkSource(node, node.source, typeOnly);
      },
      ExportNamedDeclaration(node) {
        checkSource(node, node.source, node.exportKind === 'type');
      },
      ExportAllDeclaration(node) {
        checkSource(node, node.source, node.exportKind === 'type');
      },
      ImportExpression(node) {
        checkSource(node, node.source, false);
      },
      TSImportEqualsDeclaration(node) {
        if (node.moduleReference.type === 'TSExternalModuleReference') {
          checkSource(node, node.moduleReference.expression, node.importKind === 'type');
        }
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1) {
          checkSource(node, node.arguments[0], false);
        }
      },
      // db.prepare(…), db?.exec(…), db['pragma'](…) and db.transaction.bind(db) alike.
      MemberExpression(node) {
        const method = memberName(node);
        if (method !== null && methods.has(method) && onDatabase(node.object)) {
          context.report({ node: node.property, messageId: 'method', data: { method } });
        }
      },
      // const { prepare } = db
      VariableDeclarator(node) {
        if (node.id.type !== 'ObjectPattern' || !node.init || !onDatabase(node.init)) return;
        for (const property of node.id.properties) {
          if (property.type !== 'Property') continue;
          const method = property.computed
            ? property.key.type === 'Literal'
              ? String(property.key.value)
              : null
            : property.key.type === 'Identifier'
              ? property.key.name
              : null;
          if (method !== null && methods.has(method)) {
            context.report({ node: property, messageId: 'method', data: { method } });
          }
        }
      },
    };
  },
};
