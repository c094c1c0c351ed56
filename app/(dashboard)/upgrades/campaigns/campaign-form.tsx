// The campaign form (create and edit): a plain POST form, so it works without JavaScript; the route
// checks role and CSRF token, audits, and redirects to the campaign page.
import { DEFAULT_WAVE_LABEL, DEFAULT_WAVE_ORDER } from "@/lib/upgrades/campaign";

const field =
  "mt-1 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";
const label = "flex flex-col text-xs font-medium text-zinc-600 dark:text-zinc-400";

export interface CampaignFormValues {
  name: string;
  targetVersion: string;
  deadline: string;
  waveLabel: string;
  waveOrder: string[];
}

export function CampaignForm({
  action,
  csrfToken,
  values,
  submit,
}: {
  action: string;
  csrfToken: string;
  values?: CampaignFormValues;
  submit: string;
}) {
  return (
    <form method="post" action={action} className="flex flex-wrap items-end gap-3" aria-label={submit}>
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="_action" value="update" />
      <label className={label}>
        Name
        <input name="name" required minLength={3} maxLength={120} defaultValue={values?.name} className={`${field} w-72`} />
      </label>
      <label className={label}>
        Target version
        <input
          name="targetVersion"
          required
          pattern="1\.[0-9]{1,3}"
          placeholder="1.35"
          defaultValue={values?.targetVersion}
          className={`${field} w-24`}
        />
      </label>
      <label className={label}>
        Due (UTC)
        <input type="date" name="deadline" required defaultValue={values?.deadline} className={field} />
      </label>
      <label className={label}>
        Waves by label
        <input name="waveLabel" defaultValue={values?.waveLabel ?? DEFAULT_WAVE_LABEL} className={`${field} w-28`} />
      </label>
      <label className={label}>
        Wave order (comma-separated)
        <input name="waveOrder" defaultValue={(values?.waveOrder ?? DEFAULT_WAVE_ORDER).join(", ")} className={`${field} w-56`} />
      </label>
      <button
        type="submit"
        className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
      >
        {submit}
      </button>
    </form>
  );
}
