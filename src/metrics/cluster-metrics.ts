import { Counter, Gauge, type Registry } from 'prom-client';
import type { ClusterStatus } from '../store/cluster-status.js';

/**
 * The cluster's side of /metrics (DATABASE_URL): this instance's role, the
 * journal sequence it applied and its lag behind the writer, whether
 * PostgreSQL answers it, the writes it forwarded, the takeovers it made, its
 * step-downs and its reloads from a snapshot. Read from ClusterStatus at scrape
 * time, so counting costs the request path nothing.
 */
export function clusterMetrics(registry: Registry, cluster: ClusterStatus): void {
  new Gauge({
    name: 'catalogue_cluster_writer',
    help: '1 while this instance is the writer, 0 while it follows',
    registers: [registry],
    collect() {
      this.set(cluster.role === 'writer' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'catalogue_cluster_applied_sequence',
    help: 'The last journal sequence this instance has applied (the writer: has on disk)',
    registers: [registry],
    collect() {
      this.set(cluster.view().appliedSeq);
    },
  });
  new Gauge({
    name: 'catalogue_cluster_lag_commands',
    help: 'Commands the writer said it appended that this instance has not applied yet',
    registers: [registry],
    collect() {
      this.set(cluster.view().lag.commands);
    },
  });
  new Gauge({
    name: 'catalogue_cluster_lag_seconds',
    help: 'How long this instance has been behind the writer (0: caught up)',
    registers: [registry],
    collect() {
      this.set(cluster.view().lag.seconds);
    },
  });
  new Gauge({
    name: 'catalogue_cluster_database_reachable',
    help: '1 while PostgreSQL answers this instance, 0 while it does not (writes are refused then; reads go on)',
    registers: [registry],
    collect() {
      this.set(cluster.view().database === 'reachable' ? 1 : 0);
    },
  });
  let forwardedPublished = 0;
  new Counter({
    name: 'catalogue_cluster_forwarded_commands_total',
    help: 'Writes this follower sent on to the writer, answered or not',
    registers: [registry],
    collect() {
      const { forwardedCommands } = cluster.view();
      this.inc(forwardedCommands - forwardedPublished);
      forwardedPublished = forwardedCommands;
    },
  });
  const counted = (name: string, help: string, read: () => number): void => {
    let published = 0;
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const now = read();
        this.inc(now - published);
        published = now;
      },
    });
  };
  counted('catalogue_cluster_step_downs_total', 'Times this instance, the writer, found its lease taken by another and became a follower in place', () => cluster.view().stepDowns);
  counted('catalogue_cluster_reloads_total', 'Times this instance reloaded its store from the newest snapshot (after a step-down, or left behind by the snapshots)', () => cluster.view().reloads);
  let failoversPublished = 0;
  new Counter({
    name: 'catalogue_cluster_failovers_total',
    help: 'Times this instance took the writer lease over from another writer',
    registers: [registry],
    collect() {
      const { failovers } = cluster.view();
      this.inc(failovers - failoversPublished);
      failoversPublished = failovers;
    },
  });
}
