import type { RequestStatsFilters } from '../../core/model/request-stats.js';

/**
 * The WHERE clause of the request list's filters over `requests r` (the list and the charts
 * share it): the project, the records after an id, method, starred, a text the path contains, contract violations and
 * status ranges, with the arguments in order.
 */
export function filterWhere(
  projectId: string,
  filters: RequestStatsFilters,
): { where: string; args: unknown[] } {
  const where = ['r.project_id = ?'];
  const args: unknown[] = [projectId];
  if (filters.after !== undefined) {
    where.push('r.id > ?');
    args.push(filters.after);
  }
  if (filters.method) {
    where.push('r.method = ?');
    args.push(filters.method);
  }
  if (filters.starred !== undefined) {
    where.push('r.starred = ?');
    args.push(filters.starred ? 1 : 0);
  }
  if (filters.path !== undefined) {
    // the path is the target up to its query; instr is case-sensitive, as paths are
    where.push(
      "instr(CASE WHEN instr(r.target, '?') > 0 THEN substr(r.target, 1, instr(r.target, '?') - 1) ELSE r.target END, ?) > 0",
    );
    args.push(filters.path);
  }
  if (filters.violations !== undefined) {
    // contract_ok = 0: a live check found violations (an index holds just those rows)
    where.push(filters.violations ? 'r.contract_ok = 0' : '(r.contract_ok IS NULL OR r.contract_ok <> 0)');
  }
  if (filters.status && filters.status.length) {
    where.push(`(${filters.status.map(() => 'r.status BETWEEN ? AND ?').join(' OR ')})`);
    for (const r of filters.status) args.push(r.min, r.max);
  }
  return { where: where.join(' AND '), args };
}
