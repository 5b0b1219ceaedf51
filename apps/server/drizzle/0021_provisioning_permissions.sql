-- The permissions of provisioning: webhooks:read and webhooks:write for the webhooks screen and
-- its API, and scim for the applications that provision users by SCIM. Made in every tenant
-- that has system permissions (all but the master realm), as provisioning creates them; a
-- custom permission of the same name becomes the system one (the API checks by name).
INSERT INTO permissions (tenant_id, name, is_system)
  SELECT tenants.id, names.name, true
  FROM tenants CROSS JOIN (VALUES ('webhooks:read'), ('webhooks:write'), ('scim')) AS names (name)
  WHERE NOT tenants.is_master
  ON CONFLICT (tenant_id, lower(name))
  DO UPDATE SET name = excluded.name, is_system = true, updated_at = now();
--> statement-breakpoint
-- The built-in Admin role holds every system permission.
INSERT INTO role_permissions (tenant_id, role_id, permission_id)
  SELECT roles.tenant_id, roles.id, permissions.id
  FROM roles
  JOIN permissions ON permissions.tenant_id = roles.tenant_id
    AND permissions.name IN ('webhooks:read', 'webhooks:write', 'scim')
  WHERE roles.is_system AND roles.name = 'Admin'
  ON CONFLICT DO NOTHING;
