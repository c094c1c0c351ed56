// Label and field selectors as the apiserver parses them (k8s.io/apimachinery/pkg/labels, fields).
import { badRequest } from "./status";

type LabelRequirement =
  | { op: "=" | "!="; key: string; value: string }
  | { op: "in" | "notin"; key: string; values: string[] }
  | { op: "exists" | "!exists"; key: string };

export type LabelSelector = LabelRequirement[];

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth++;
    if (char === ")") depth--;
    if (char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter(Boolean);
}

const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

function checkKey(key: string, selector: string) {
  if (!LABEL_KEY.test(key)) throw badRequest(`unable to parse requirement: invalid label key "${key}" in selector "${selector}"`);
}
function checkValue(value: string, selector: string) {
  if (!LABEL_VALUE.test(value)) throw badRequest(`unable to parse requirement: invalid label value "${value}" in selector "${selector}"`);
}

export function parseLabelSelector(selector: string | null | undefined): LabelSelector {
  if (!selector) return [];
  return splitTopLevel(selector).map((part): LabelRequirement => {
    const setMatch = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(part);
    if (setMatch) {
      checkKey(setMatch[1], selector);
      const values = setMatch[3]
        .split(",")
        .map((value) => value.trim())
        .filter(Boolean);
      values.forEach((value) => checkValue(value, selector));
      return { op: setMatch[2] as "in" | "notin", key: setMatch[1], values };
    }
    const comparison = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (comparison) {
      checkKey(comparison[1], selector);
      checkValue(comparison[3], selector);
      return { op: comparison[2] === "!=" ? "!=" : "=", key: comparison[1], value: comparison[3] };
    }
    if (part.startsWith("!")) {
      checkKey(part.slice(1).trim(), selector);
      return { op: "!exists", key: part.slice(1).trim() };
    }
    checkKey(part, selector);
    return { op: "exists", key: part };
  });
}

export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  for (const requirement of selector) {
    const value = labels?.[requirement.key];
    switch (requirement.op) {
      case "=":
        if (value !== requirement.value) return false;
        break;
      case "!=":
        if (value === requirement.value) return false;
        break;
      case "in":
        if (value === undefined || !requirement.values.includes(value)) return false;
        break;
      case "notin":
        if (value !== undefined && requirement.values.includes(value)) return false;
        break;
      case "exists":
        if (value === undefined) return false;
        break;
      case "!exists":
        if (value !== undefined) return false;
        break;
    }
  }
  return true;
}

export interface FieldRequirement {
  field: string;
  negate: boolean;
  value: string;
}

/**
 * `metadata.name` and `metadata.namespace` work on every kind; others only where the kind declares them
 * (the apiserver answers 400 for the rest, with the message custom resources get).
 */
export function parseFieldSelector(selector: string | null | undefined, supported: string[], isCustom: boolean): FieldRequirement[] {
  if (!selector) return [];
  const allowed = new Set(["metadata.name", "metadata.namespace", ...supported]);
  return splitTopLevel(selector).map((part) => {
    const match = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!match) throw badRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    const field = match[1].trim();
    if (!allowed.has(field)) {
      throw badRequest(
        isCustom
          ? `"${field}" is not a known field selector: only "metadata.name", "metadata.namespace"`
          : `field label not supported: ${field}`,
      );
    }
    return { field, negate: match[2] === "!=", value: match[3] };
  });
}

function fieldValue(object: Record<string, unknown>, field: string): string {
  let value: unknown = object;
  for (const step of field.split(".")) {
    value = value && typeof value === "object" ? (value as Record<string, unknown>)[step] : undefined;
  }
  if (field === "source" && value && typeof value === "object") value = (value as { component?: string }).component;
  if (value === undefined || value === null) return "";
  return String(value);
}

export function matchesFields(requirements: FieldRequirement[], object: Record<string, unknown>): boolean {
  for (const requirement of requirements) {
    const equal = fieldValue(object, requirement.field) === requirement.value;
    if (equal === requirement.negate) return false;
  }
  return true;
}
