/**
 * A seed: the records the sandbox starts from, by company. Its shape is the JSON Schema in
 * seed.schema.json (checked by ./validate-seed.ts, compiled from it); its records reuse the
 * contract's own types, so they are checked exactly as the API checks them.
 */
import type { ClientUpdate, VenueCreate, WorkerCredential } from "workforce-scheduling-api";

/** The records the sandbox starts from. */
export interface Seed {
  readonly companies: readonly SeedCompany[];
}

/** One company: its keys and people, and the records the API has no operation to create. */
export interface SeedCompany {
  readonly company_id: number;
  readonly name: string;
  /** the company's keys, each held by one of its people: the caller when the key is presented */
  readonly api_keys: readonly { readonly key: string; readonly personnel_id: number }[];
  /** the company's people: workers, and the holders of its keys */
  readonly personnel: readonly { readonly personnel_id: number; readonly name: string }[];
  /** clients: the fields of the client object, and the client's id */
  readonly clients?: readonly (ClientUpdate & { readonly id: string })[];
  /** credential types: the credential-type fields of the credential answer */
  readonly credential_types?: readonly SeedCredentialType[];
  /** wage rules: any JSON objects, answered as given, each named by its `id` */
  readonly wage_rules?: readonly (Readonly<Record<string, unknown>> & { readonly id: string | number })[];
  /** venues to start with, optionally with their ids */
  readonly venues?: readonly (VenueCreate & { readonly venue_id?: number })[];
}

/** The fields of a credential type. */
export type SeedCredentialType = Pick<WorkerCredential, CredentialTypeField> & {
  readonly credentials_id: string;
  readonly name: string;
};

/** The fields a credential answer takes from its credential type. */
export const CREDENTIAL_TYPE_FIELDS = [
  "description",
  "type",
  "expiration_months",
  "expiring_inform",
  "expiring_inform_period",
  "expiring_inform_hr",
  "expiring_inform_hr_period",
  "expired_inform",
  "expired_inform_hr",
  "rule_usable",
  "worker_viewable",
  "worker_editable",
  "protected",
  "course_id",
] as const;

type CredentialTypeField = (typeof CREDENTIAL_TYPE_FIELDS)[number];

/**
 * The demo seed, loaded when no other is given: two companies, so that what one key's caller sees
 * and what the other's does can be compared. Its records match the spec's examples (worker 1042,
 * credential type 3, venues 12 and 318, client HARBOR42, wage rule 7), so the reference's "Try it"
 * calls succeed against it.
 */
export const DEMO_SEED: Seed = {
  companies: [
    {
      company_id: 5,
      name: "Harbor Events",
      api_keys: [{ key: "demo-key-harbor", personnel_id: 7 }],
      personnel: [
        { personnel_id: 7, name: "Dana Ortiz" },
        { personnel_id: 12, name: "Lee Chen" },
        { personnel_id: 15, name: "Priya Nair" },
        { personnel_id: 1042, name: "Sam Lee" },
      ],
      clients: [
        { id: "HARBOR42", client_name: "Harbor Events Ltd", client_contact_name: "Sam Lee", client_city: "Portsmouth" },
      ],
      credential_types: [
        {
          credentials_id: "3",
          name: "Forklift licence",
          description: "Licence to operate counterbalance forklifts",
          type: "licence",
          expiration_months: 36,
          expiring_inform: 1,
          expiring_inform_period: 30,
          expiring_inform_hr: 1,
          expiring_inform_hr_period: 14,
          expired_inform: 1,
          expired_inform_hr: 1,
          rule_usable: 1,
          worker_viewable: 1,
        },
        {
          credentials_id: "4",
          name: "First aid",
          description: "Basic first aid",
          type: "certificate",
          expiration_months: 24,
          worker_viewable: 1,
        },
      ],
      wage_rules: [
        { id: "1", name: "Standard", hourly_rate: 15.5 },
        { id: "7", name: "Weekend", hourly_rate: 18.5 },
      ],
      venues: [
        { venue_id: 12, name: "North warehouse", address: "4 Dock Road", city: "Portsmouth", zip: "PO2 8AB", saved: 1 },
        {
          venue_id: 15,
          name: "South warehouse",
          address: "9 Quay Street",
          city: "Portsmouth",
          zip: "PO1 3AX",
          saved: 1,
        },
        { venue_id: 318, name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ", saved: 1 },
      ],
    },
    {
      company_id: 6,
      name: "Summit Staffing",
      api_keys: [{ key: "demo-key-summit", personnel_id: 3 }],
      personnel: [
        { personnel_id: 3, name: "Alex Kim" },
        { personnel_id: 55, name: "Jo Park" },
      ],
      clients: [{ id: "SUMMIT1", client_name: "Summit Conferences" }],
      credential_types: [
        {
          credentials_id: "3",
          name: "Food hygiene",
          description: "Level 2 food hygiene",
          type: "certificate",
          expiration_months: 36,
        },
      ],
      wage_rules: [{ id: "1", name: "Base", hourly_rate: 14 }],
      venues: [{ name: "Summit Centre", address: "2 Hill Street", city: "Leeds", zip: "LS1 1AA", saved: 1 }],
    },
  ],
};

/** A key of a seed with whom it belongs to, for the lists of demo keys. */
export interface SeedKey {
  readonly key: string;
  readonly company: string;
  readonly companyId: number;
  readonly holder: string;
  readonly personnelId: number;
}

/** Every key of a seed, company by company, with its company and holder. */
export function seedKeys(seed: Seed): SeedKey[] {
  return seed.companies.flatMap((company) =>
    company.api_keys.map(({ key, personnel_id }) => ({
      key,
      company: company.name,
      companyId: company.company_id,
      holder: company.personnel.find((person) => person.personnel_id === personnel_id)?.name ?? "",
      personnelId: personnel_id,
    })),
  );
}
