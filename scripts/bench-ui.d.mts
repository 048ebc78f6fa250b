/** The types of bench-ui.mjs's size measurement, for the test that keeps the UI's first load in its budget. */
export interface UiFileSize {
  file: string;
  raw: number;
  gzip: number;
}
export interface UiBundleSize {
  files: UiFileSize[];
  gzip: number;
  raw: number;
  firstLoad: { script: number; styles: number; scripts: string[]; lazy: UiFileSize[] };
}
export function uiBundleSize(root: string): UiBundleSize;
export function measureUi(options: {
  root: string;
  cli: string;
  env: NodeJS.ProcessEnv;
  runs?: number;
}): Promise<{ lines: string[]; ok: boolean }>;
