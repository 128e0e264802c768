// wgsl_reflect's `main` is a CommonJS file in a `"type": "module"` package, which Node cannot
// load; its ES module build is loaded by path, with the package's own types.
declare module 'wgsl_reflect/wgsl_reflect.module.js' {
  export * from 'wgsl_reflect';
}
