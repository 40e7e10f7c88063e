/**
 * The rates form's drafts (text as typed) to and from the stored rates, checked by the same zod
 * schema core checks them with; each problem goes to the field it is about, by id.
 */
import { ratesSchema, type RateScope, type Rates, type RateSet, type RateTier } from '../../../shared/exposure';

export interface TierDraft {
  fromDay: string;
  perDay: string;
}

export interface SetDraft {
  /** Stable for the editor's keyed list and field ids; not stored. */
  key: number;
  scope: RateScope;
  match: string;
  demurrage: TierDraft[];
  /** Empty free days and no detention tiers: this set says nothing about detention. */
  freeDays: string;
  detention: TierDraft[];
}

export interface RatesDraft {
  currency: string;
  sets: SetDraft[];
}

let nextKey = 1;

export function newSet(scope: RateScope): SetDraft {
  return {
    key: nextKey++,
    scope,
    match: '',
    demurrage: [{ fromDay: '1', perDay: '' }],
    freeDays: '',
    detention: scope === 'terminal' ? [] : [{ fromDay: '1', perDay: '' }],
  };
}

const text = (n: number): string => String(n);
const tiersToDraft = (tiers: readonly RateTier[]): TierDraft[] =>
  tiers.map((t) => ({ fromDay: text(t.fromDay), perDay: text(t.perDay) }));

export function toDraft(rates: Rates): RatesDraft {
  return {
    currency: rates.currency,
    sets: rates.sets.map((set) => ({
      key: nextKey++,
      scope: set.scope,
      match: set.match,
      demurrage: tiersToDraft(set.demurrage),
      freeDays: set.detention ? text(set.detention.freeDays) : '',
      detention: set.detention ? tiersToDraft(set.detention.tiers) : [],
    })),
  };
}

/** A number as typed ("1,250.50" too); NaN when it is not one, so the schema says so. */
function numberOf(value: string): number {
  const cleaned = value.trim().replace(/,/g, '');
  return cleaned === '' ? NaN : Number(cleaned);
}

const filled = (t: TierDraft) => t.fromDay.trim() !== '' || t.perDay.trim() !== '';
const tiersOf = (drafts: TierDraft[]): RateTier[] =>
  drafts.filter(filled).map((t) => ({ fromDay: numberOf(t.fromDay), perDay: numberOf(t.perDay) }));

/** The draft as the stored shape (unchecked); rows left empty are dropped. */
export function fromDraft(draft: RatesDraft): Rates {
  return {
    currency: draft.currency.trim().toUpperCase(),
    sets: draft.sets.map((set): RateSet => {
      const detention = tiersOf(set.detention);
      const saysDetention = set.scope !== 'terminal' && (set.freeDays.trim() !== '' || detention.length > 0);
      return {
        scope: set.scope,
        match:
          set.scope === 'default' ? '' : set.scope === 'carrier' ? set.match.trim().toUpperCase() : set.match.trim(),
        demurrage: tiersOf(set.demurrage),
        detention: saysDetention ? { freeDays: numberOf(set.freeDays), tiers: detention } : null,
      };
    }),
  };
}

/** Field ids, shared by the editor and the error mapping. */
export const fieldIds = {
  currency: 'rates-currency',
  match: (key: number) => `rates-${key}-match`,
  tier: (key: number, charge: 'dem' | 'det', i: number, part: 'from' | 'per') => `rates-${key}-${charge}-${i}-${part}`,
  freeDays: (key: number) => `rates-${key}-free`,
  set: (key: number) => `rates-${key}-set`,
};

/** Index of a filled tier among the drafts (empty rows were dropped before checking). */
function draftIndex(drafts: TierDraft[], checkedIndex: number): number {
  let seen = -1;
  for (let i = 0; i < drafts.length; i++) if (filled(drafts[i]!) && ++seen === checkedIndex) return i;
  return Math.max(0, drafts.length - 1);
}

export type CheckedRates = { ok: true; rates: Rates } | { ok: false; errors: Record<string, string> };

/** Checks the draft with the shared schema; on failure, one sentence per field id. */
export function checkDraft(draft: RatesDraft): CheckedRates {
  const parsed = ratesSchema.safeParse(fromDraft(draft));
  if (parsed.success) return { ok: true, rates: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const id = fieldOf(draft, issue.path);
    errors[id] ??= issue.message;
  }
  return { ok: false, errors };
}

function fieldOf(draft: RatesDraft, path: readonly PropertyKey[]): string {
  if (path[0] !== 'sets') return fieldIds.currency;
  const set = draft.sets[Number(path[1])];
  if (!set) return fieldIds.currency;
  const [, , member, a, b] = path;
  if (member === 'match') return fieldIds.match(set.key);
  if (member === 'demurrage') {
    if (typeof a !== 'number') return fieldIds.set(set.key);
    return fieldIds.tier(set.key, 'dem', draftIndex(set.demurrage, a), b === 'fromDay' ? 'from' : 'per');
  }
  if (member === 'detention') {
    if (a === 'tiers' && typeof b === 'number') {
      const part = path[5] === 'fromDay' ? 'from' : 'per';
      return fieldIds.tier(set.key, 'det', draftIndex(set.detention, b), part);
    }
    if (a === 'tiers' && set.detention.length > 0) return fieldIds.tier(set.key, 'det', 0, 'per');
    return fieldIds.freeDays(set.key);
  }
  return fieldIds.set(set.key);
}
