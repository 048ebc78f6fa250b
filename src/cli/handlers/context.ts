import { createContext, type AppContext } from '../../app/context.js';
import { currentRun } from '../io.js';
import { log } from '../log.js';

/**
 * The AppContext of the current CLI run (data dir from the run's environment, cwd from the
 * run's working folder), made on first use. The real binary has one for the process; an
 * in-process run has its own, closed when the run ends.
 */
export const cliContext = (): AppContext => {
  const run = currentRun();
  return (run.ctx ??= createContext({
    env: run.io.env,
    cwd: run.io.cwd,
    onWarning: (m) => log.warn(m),
    onInfo: (m) => log.info(m),
  }));
};
