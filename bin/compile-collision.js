#!/usr/bin/env node
// Thin launcher: registers tsx so the TypeScript sources run without a build step, then hands over to cli/main.ts.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
