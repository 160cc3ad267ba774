// run.mjs runs the WASI build of rgkit's rg (GOOS=wasip1 GOARCH=wasm go
// build ./cmd/rg) in Node's node:wasi:
//
//     node run.mjs rg.wasm [rg arguments...]
//
// The working directory is pre-opened at its own absolute path and PWD
// names it, so relative paths print as a native rg prints them and
// absolute paths beneath it work too. stdin, stdout and stderr are the
// process's own; the exit status is rg's.
import { readFile } from 'node:fs/promises';
import process from 'node:process';

// node:wasi warns that it is experimental on stderr, which would add a
// line to rg's own stderr.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  if (!String(warning).includes('WASI')) emitWarning.call(process, warning, ...rest);
};
const { WASI } = await import('node:wasi');

const [module, ...args] = process.argv.slice(2);
if (!module) {
  process.stderr.write('usage: node run.mjs rg.wasm [rg arguments...]\n');
  process.exit(2);
}
const cwd = process.cwd();
const wasi = new WASI({
  version: 'preview1',
  args: ['rg', ...args],
  env: { ...process.env, PWD: cwd },
  preopens: { [cwd]: cwd },
  returnOnExit: true,
});
const compiled = await WebAssembly.compile(await readFile(module));
const instance = await WebAssembly.instantiate(compiled, wasi.getImportObject());
process.exitCode = wasi.start(instance);
