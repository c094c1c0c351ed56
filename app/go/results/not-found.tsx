// 404 for alert labels that match nothing. The boundary gets no props, so the nearest matches are
// fetched by the browser from /go?…&format=json.
import { GoNotFoundDetails } from "./go-not-found.client";

export default function GoNotFound() {
  return <GoNotFoundDetails />;
}
