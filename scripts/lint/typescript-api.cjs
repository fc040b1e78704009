// typescript-eslint needs TypeScript's compiler API, which the native TypeScript 7 the project compiles
// with does not have. Inside the lint process only, `typescript` resolves to the 6.x API package
// installed as `typescript-api`; the build and the typecheck keep using TypeScript 7.
const Module = require('node:module')

const resolveFilename = Module._resolveFilename
Module._resolveFilename = function resolveTypescriptApi(request, ...rest) {
  if (request === 'typescript' || request.startsWith('typescript/')) {
    return resolveFilename.call(this, request.replace(/^typescript/, 'typescript-api'), ...rest)
  }
  return resolveFilename.call(this, request, ...rest)
}
