import { createContext, type AppContext } from '../../app/context.js';

let ctx: AppContext | undefined;

/** The one AppContext of a CLI process (data dir from the environment, cwd from the process). */
export const cliContext = (): AppContext => (ctx ??= createContext());
