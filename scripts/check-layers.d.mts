/** Types of scripts/check-layers.mjs's checks, for test/house-rules/layers.test.ts. */
export interface LayerNode {
  name: string;
  /** 0 for the bottom layer. */
  rank: number;
  holds: string;
  imports: string[];
}
export interface LayerException {
  from: string;
  to: string;
  why: string;
}
/** An import `from` -> `to` the table allows, narrowed to these files of `to` (a `/`-ended entry: a folder). */
export interface LayerSeam {
  from: string;
  to: string;
  through: string[];
  why: string;
}
export interface LayerTable {
  everywhere: string[];
  nodes: LayerNode[];
  exceptions: LayerException[];
  seams: LayerSeam[];
}
export interface LayerTableJson {
  everywhere: string[];
  layers: Record<string, { holds: string; imports: string[] }>[];
  exceptions: LayerException[];
  seams?: LayerSeam[];
}
export interface FolderImport {
  file: string;
  line: number;
  specifier: string;
  from: string;
  to: string;
  /** The imported file, relative to src/ (`models/gguf/engine.ts`). */
  target: string;
}
export const TABLE_FILE: string;
export const DOC_FILE: string;
export function parseTable(json: LayerTableJson): LayerTable;
export function readTable(root?: string): LayerTable;
export function nodeOf(relative: string): string;
export function checkTable(table: LayerTable): string[];
export function checkImports(
  table: LayerTable,
  imports: FolderImport[],
  present: Set<string>,
  files?: Set<string>,
): string[];
export function renderLayers(table: LayerTable): string;
export function withLayerSection(doc: string, section: string): string | undefined;
