// The campaign form (create and edit): a plain POST form, so it works without JavaScript; the route
// checks role and CSRF token, audits, and redirects to the campaign page.
import { DEFAULT_WAVE_LABEL, DEFAULT_WAVE_ORDER } from "@/lib/upgrades/campaign";
import { fieldClass, labelClass } from "@/app/_components/form-fields";

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
  error,
}: {
  action: string;
  csrfToken: string;
  values?: CampaignFormValues;
  submit: string;
  /** What the route refused on the last attempt (it redirects back with ?error=…). */
  error: string | null;
}) {
  return (
    <>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
          Not saved: {error}
        </p>
      ) : null}
      <div className="mt-2">
        <form method="post" action={action} className="flex flex-wrap items-end gap-3" aria-label={submit}>
          <input type="hidden" name="csrfToken" value={csrfToken} />
          <input type="hidden" name="_action" value="update" />
          <label className={labelClass}>
            Name
            <input name="name" required minLength={3} maxLength={120} defaultValue={values?.name} className={`${fieldClass} w-72`} />
          </label>
          <label className={labelClass}>
            Target version
            <input
              name="targetVersion"
              required
              pattern="1\.[0-9]{1,3}"
              placeholder="1.35"
              defaultValue={values?.targetVersion}
              className={`${fieldClass} w-24`}
            />
          </label>
          <label className={labelClass}>
            Due (UTC)
            <input type="date" name="deadline" required defaultValue={values?.deadline} className={fieldClass} />
          </label>
          <label className={labelClass}>
            Waves by label
            <input name="waveLabel" defaultValue={values?.waveLabel ?? DEFAULT_WAVE_LABEL} className={`${fieldClass} w-28`} />
          </label>
          <label className={labelClass}>
            Wave order (comma-separated)
            <input name="waveOrder" defaultValue={(values?.waveOrder ?? DEFAULT_WAVE_ORDER).join(", ")} className={`${fieldClass} w-56`} />
          </label>
          <button
            type="submit"
            className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
          >
            {submit}
          </button>
        </form>
      </div>
    </>
  );
}
