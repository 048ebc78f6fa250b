import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stores } from '../../src/core/ports.js';
import { openLocalStores } from '../../src/store/local.js';

/**
 * The store implementations every contract suite runs against. A new implementation (the
 * PostgreSQL store) is one more entry here.
 */
export interface StoreImplementation {
  name: string;
  /**
   * A fresh, empty set of stores. `again()` opens a second set over the same data, as another
   * process would (changes made through one are seen by the other). `folders`: where tests may
   * make project folders, for an implementation that has folder projects (the user's folders on
   * this machine); a store without them (a shared database) leaves it out, and the folder
   * project contract does not apply to it.
   */
  open(): Promise<{ stores: Stores; again(): Stores; cleanup(): Promise<void>; folders?: string }>;
  /** Whether open() gives `folders`. */
  folderProjects: boolean;
}

export const LOCAL_STORES: StoreImplementation = {
  name: 'local (JSON folders, SQLite request log)',
  folderProjects: true,
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'mockdev-contract-'));
    const options = { cwd: dir, folderPollMs: 50, dataDirPollMs: 50 };
    const opened: Stores[] = [];
    const make = () => {
      const stores = openLocalStores(join(dir, 'data'), options);
      opened.push(stores);
      return stores;
    };
    return {
      stores: make(),
      again: make,
      folders: dir,
      cleanup: async () => {
        for (const s of opened) s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export const IMPLEMENTATIONS: StoreImplementation[] = [LOCAL_STORES];
