// Bundles the extension into dist/extension.js (vscode stays external), or,
// with --tests, the unit tests into out/test/ for `node --test`.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');

const options = args.has('--tests')
  ? {
      entryPoints: readdirSync('test').filter((f) => f.endsWith('.test.ts')).map((f) => `test/${f}`),
      outdir: 'out/test',
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node18',
      logLevel: 'warning',
    }
  : {
      entryPoints: ['src/extension.ts'],
      outfile: 'dist/extension.js',
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node18', // VS Code 1.82's extension host runs Node 18
      external: ['vscode'],
      minify: production,
      sourcemap: !production,
      logLevel: 'warning',
    };

if (args.has('--tests')) {
  rmSync('out/test', { recursive: true, force: true });
}
if (args.has('--watch')) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
