import { describe, expect, it } from "vitest";
import { supportInfo } from "../../upgrades/support";
import { EKS_VERSIONS } from "./catalogue";
import { FleetCalendarError, fleetVersionsAt } from "./fleet-versions";
import { createFleetModel } from "./index";

const at = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;
/** What the product will say about a version at that instant (its own calendar, as the dashboard uses it). */
const statusAt = (version: string, when: number) => supportInfo(version, null, new Date(when))!.versionStatus;

describe("the fleet's versions follow the EKS calendar at the simulation's date", () => {
  it("on 2026-11-26, the day 1.31 left extended support", () => {
    expect(fleetVersionsAt(at("2026-11-26T12:00:00Z"))).toEqual({
      date: "2026-11-26",
      standard: ["1.35", "1.34"],
      reference: "1.35",
      hub: "1.34",
      extendedSupport: "1.32",
      nodeGroupSkew: { controlPlane: "1.34", kubeProxy: "1.33", nodegroup: "1.32" },
      scheduledUpgrade: { from: "1.34", to: "1.35" },
      removedApi: { version: "1.31", removedIn: "1.32" },
      pastExtendedSupport: "1.27",
    });
  });

  it("on 2026-12-03, after 1.34 left standard support: only 1.35 is left for the roles that need standard support", () => {
    expect(fleetVersionsAt(at("2026-12-03T12:00:00Z"))).toMatchObject({
      standard: ["1.35"],
      reference: "1.35",
      hub: "1.35",
      extendedSupport: "1.32",
      nodeGroupSkew: { controlPlane: "1.35", kubeProxy: "1.34", nodegroup: "1.33" },
      // The calendar knows nothing newer than 1.35, so the upgrade starts from 1.34, in extended support by now.
      scheduledUpgrade: { from: "1.34", to: "1.35" },
    });
  });

  it("switches at 00:00 UTC of the end-of-standard date, when extended-support billing starts", () => {
    expect(fleetVersionsAt(at("2026-12-01T23:59:59Z")).standard).toEqual(["1.35", "1.34"]);
    expect(fleetVersionsAt(at("2026-12-02T00:00:00Z")).standard).toEqual(["1.35"]);
  });

  it("on 2027-03-24, after 1.32 left extended support: the extended-support spoke moves to 1.33", () => {
    expect(fleetVersionsAt(at("2027-03-24T12:00:00Z"))).toMatchObject({ standard: ["1.35"], extendedSupport: "1.33" });
  });

  it("refuses a date the calendar has no version in standard support for, naming the date and what is missing", () => {
    const choose = () => fleetVersionsAt(at("2027-03-27T00:00:00Z"));
    expect(choose).toThrow(FleetCalendarError);
    expect(choose).toThrow(/cannot start on 2027-03-27: no version in standard support .*lib\/simulator\/fleet\/catalogue\.ts/);
  });

  it("refuses a calendar without a version in extended support, and one missing a version a role needs", () => {
    const newest = EKS_VERSIONS.filter((v) => v.version === "1.34" || v.version === "1.35");
    expect(() => fleetVersionsAt(at("2026-11-26T12:00:00Z"), newest)).toThrow(/no version in extended support/);
    const without131 = EKS_VERSIONS.filter((v) => v.version !== "1.31");
    expect(() => fleetVersionsAt(at("2026-11-26T12:00:00Z"), without131)).toThrow(/1\.31 for the removed-API spoke/);
  });

  it("gives every role the support state it needs, as the product sees it, on every day the calendar covers", () => {
    let days = 0;
    for (let t = at("2026-11-26T00:00:00Z"); t < at("2027-03-27T00:00:00Z"); t += DAY / 2) {
      const v = fleetVersionsAt(t);
      const when = new Date(t).toISOString();
      for (const version of [...v.standard, v.reference, v.hub, v.nodeGroupSkew.controlPlane, v.scheduledUpgrade.to])
        expect(statusAt(version, t), `${version} on ${when}`).toBe("STANDARD_SUPPORT");
      expect(statusAt(v.extendedSupport, t), `extended-support spoke on ${when}`).toBe("EXTENDED_SUPPORT");
      expect(statusAt(v.pastExtendedSupport, t)).toBe("UNSUPPORTED");
      expect(v.reference).toBe(v.standard[0]);
      days++;
    }
    expect(days).toBeGreaterThan(200);
  });
});

describe("the simulated fleet at a date", () => {
  for (const iso of ["2026-11-26T12:00:00Z", "2026-12-03T12:00:00Z", "2027-03-24T12:00:00Z"]) {
    it(`keeps one spoke in extended support and every ordinary cluster in standard support on ${iso.slice(0, 10)}`, () => {
      const epoch = at(iso);
      const fleet = createFleetModel({ clusters: 40, objects: 6, seed: 3, epoch, argocdSpokes: 3 });
      const { versions, extendedSupport, removedApi, scheduledUpgrade } = fleet.facts;
      expect(versions).toEqual(fleetVersionsAt(epoch));
      expect(statusAt(extendedSupport!.version, epoch)).toBe("EXTENDED_SUPPORT");
      expect(fleet.spokeSpec(extendedSupport!.cluster)!.version).toBe(extendedSupport!.version);
      expect(fleet.spokeSpec(removedApi!.cluster)).toMatchObject({ version: "1.31", roles: expect.arrayContaining(["removed-api"]) });
      const ordinary = [
        fleet.hub,
        ...fleet.spokes.filter((s) => !s.roles.some((r) => ["extended-support", "removed-api", "past-extended-support"].includes(r))),
        ...fleet.argoSpokes,
        ...fleet.provisionedSpokes,
      ].filter((s) => s.name !== scheduledUpgrade!.cluster);
      for (const s of ordinary) expect(statusAt(s.version, epoch), s.name).toBe("STANDARD_SUPPORT");
      expect(statusAt(scheduledUpgrade!.to, epoch)).toBe("STANDARD_SUPPORT");
      // Ordinary spokes still differ in version while more than one is in standard support.
      const spread = new Set(fleet.spokes.filter((s) => s.roles.length === 0).map((s) => s.version));
      expect(spread.size).toBe(Math.min(versions!.standard.length, 4));
    });
  }

  it("fails at start, not later, on a date the calendar cannot serve", () => {
    expect(() => createFleetModel({ clusters: 12, objects: 6, seed: 1, epoch: at("2027-04-01T00:00:00Z") })).toThrow(
      /cannot start on 2027-04-01/,
    );
  });
});
