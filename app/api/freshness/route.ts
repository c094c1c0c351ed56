import { connection } from "next/server";
import { getFreshness } from "@/lib/db/queries/freshness";
import { fromError, json } from "@/lib/http/response";

export async function GET() {
  await connection();
  try {
    return json(await getFreshness());
  } catch (err) {
    return fromError(err);
  }
}
