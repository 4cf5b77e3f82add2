import type { PiiTag } from '../../core/catalog/model';
import type { TableInfo } from '../../core/catalog/model';
import type { PiiCategory } from '../../core/envelope';
import { withLineage } from '../../core/pii/lineage';
import { applyOverrides, blockedCategories, createPolicy, findOverride, parsePolicyYaml, type PiiPolicy } from '../../core/pii/policy';
import { currentPrincipal, ROLES, type Role } from '../../core/store/principal';
import type { RoleBlocks, StoredPiiPolicy } from '../../core/store/team-state';
import type { PiiGate } from '../deps';

/**
 * The PII policy of a team replica: the policy published to the store (`schemabrain pii-policy publish`; the
 * replica's own file when none was published), plus the categories each role is additionally denied. Every place
 * that asks the server's PII gate (run_query masking, get_metric, profile_table, describe_*, search, resources)
 * asks with the request's principal, so a role's extra blocks hold on every surface.
 */
export class TeamPiiPolicy {
  private base: PiiPolicy;
  private roleBlock: RoleBlocks = {};
  private perRole = new Map<Role, PiiPolicy>();
  /** The store's policy version in force (0: the replica's own file). */
  version = 0;

  constructor(
    private readonly fallback: PiiPolicy,
    private readonly extraBlock: readonly PiiCategory[] = [],
  ) {
    this.base = fallback;
    this.rebuild();
  }

  /** Applies a policy version read from the store (null: none published; the replica's file applies). */
  load(stored: StoredPiiPolicy | null): void {
    if (!stored) {
      this.base = this.fallback;
      this.roleBlock = {};
      this.version = 0;
    } else {
      const parsed = stored.body ? parsePolicyYaml(stored.body) : this.fallback;
      this.base = this.extraBlock.length ? createPolicy({ block: [...parsed.block, ...this.extraBlock], allow: [...parsed.allow], force: parsed.force, columnOverrides: parsed.columnOverrides, description: parsed.description }) : parsed;
      this.roleBlock = stored.roleBlock;
      this.version = stored.id;
    }
    this.rebuild();
  }

  private rebuild(): void {
    this.perRole = new Map();
    for (const role of ROLES) {
      const extra = this.roleBlock[role] ?? [];
      if (!extra.length) continue;
      // A role's block wins over the policy's allow list.
      this.perRole.set(role, createPolicy({
        block: [...this.base.block, ...extra],
        allow: [...this.base.allow].filter((c) => !extra.includes(c)),
        force: this.base.force,
        columnOverrides: this.base.columnOverrides,
        description: this.base.description,
      }));
    }
  }

  /** The policy for a role (the shared one when the role adds nothing). */
  policyFor(role: Role | undefined): PiiPolicy {
    return (role && this.perRole.get(role)) || this.base;
  }

  /** The categories a role is denied beyond the shared policy. */
  roleBlocks(role: Role | undefined): readonly PiiCategory[] {
    return role ? (this.roleBlock[role] ?? []) : [];
  }

  /**
   * A key that differs whenever what a role may see differs: catalog views and everything cached on them (search
   * index, resource texts) are kept per key, so one role's cached answer never serves another.
   */
  viewKey(role: Role | undefined): string {
    const extra = [...this.roleBlocks(role)].sort().join(',');
    return this.version === 0 && !extra ? '' : `${this.version}:${extra}`;
  }

  /** Whether the store's policy carries column overrides to apply to the catalog at serve time. */
  get hasColumnOverrides(): boolean {
    return this.version !== 0 && this.base.columnOverrides.size > 0;
  }

  /**
   * One source's tables with the store policy's column overrides applied to their columns' tags, and what is derived
   * from an overridden column (generated columns, views, row types) following it as at index time (the same array
   * when no override applies).
   */
  overrideTables(sourceName: string, tables: readonly TableInfo[]): readonly TableInfo[] {
    let changed = false;
    const overridden = tables.map((t) => {
      let own = false;
      const columns = t.columns.map((c) => {
        const o = findOverride(this.base, sourceName, t.schema, t.name, c.name);
        if (!o) return c;
        own = changed = true;
        return { ...c, pii: applyOverrides(c.pii, o) };
      });
      return own ? { ...t, columns } : t;
    });
    return changed ? withLineage(overridden) : tables;
  }

  /** The gate the tools ask: the request's role decides the policy. */
  gate(): PiiGate {
    return {
      blockedCategories: (tag: PiiTag | null | undefined) => (tag ? blockedCategories([tag], this.policyFor(currentPrincipal()?.role)) : []),
    };
  }
}
