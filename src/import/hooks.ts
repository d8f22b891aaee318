// Callbacks an importer's walk takes (the glTF and YBN importers; src/build/compile.ts and src/build/session.ts give them).
import type { ImportedObject } from '../model.ts';
import type { ImportMemo } from './memo.ts';

/** Optional callbacks: before the scene walk starts, and for each object as soon as it exists. */
export interface WalkHooks {
  beforeWalk?: () => Promise<void>;
  onObject?: (o: ImportedObject) => void;
  /** Arrays kept from the previous build of this level (src/build/session.ts): taken again where their inputs are the same. */
  memo?: ImportMemo;
}
