// Files the package ships beside its code: package.json, themes/, the built fake agent. They are
// found from the package root, and this module sits one folder below the root in every form the
// code runs in — src/ under vitest, dist/ once built (the bundler puts the entry and its shared
// chunks there) — so one relative URL serves all of them. Keep this file directly in src/.
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const packageRoot = fileURLToPath(new URL('../', import.meta.url));

export const packageJsonPath = path.join(packageRoot, 'package.json');

export const themesDir = path.join(packageRoot, 'themes');

/** The built fake `hermes` (an executable script); it exists once `npm run build` has run. */
export const fakeAgentPath = path.join(packageRoot, 'dist', 'fake-agent', 'hermes.js');
