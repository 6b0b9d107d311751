"""Assignment descriptors: kernel-assignments/<name>/assignment.json (see CONTRACT.md).

Interface:
    load_assignment(name_or_dir) -> Assignment   raises DescriptorError naming file and field
        NAME_OR_DIR: a directory holding assignment.json, or a name looked up under
        kernel-assignments/ and then kernel-assignments/autograder/ (the self-test)
    Assignment fields: name, title, linux, root, descriptor, student_files, config,
        modules (kernel-tree paths of the .ko files `make modules` builds for the guest),
        guest_dir, tests_path, fields (the descriptor as read: "limits" overrides
        submission.DEFAULT_LIMITS); methods base_patch_path(), base_patch_bytes(),
        skeleton_bytes(path), skeleton_dir()

Invariants: every path an Assignment hands out exists and lies inside the assignment
directory; student_files are relative kernel-tree paths without '..'.
"""
import json
from pathlib import Path

from submission import DEFAULT_LIMITS

ASSIGNMENTS_DIR = Path(__file__).resolve().parent.parent
REQUIRED_FIELDS = {"name": str, "student_files": list, "tests": str}
OPTIONAL_FIELDS = {"title": str, "linux": str, "base_patch": str, "skeleton_dir": str,
		   "config": list, "modules": list, "guest_dir": str, "limits": dict}


class DescriptorError(Exception):
	"""The assignment descriptor (the instructor's input) is wrong."""


class Assignment:
	def __init__(self, descriptor, fields):
		self.descriptor = descriptor
		self.root = descriptor.parent
		self.name = fields["name"]
		self.title = fields.get("title", self.name)
		self.linux = fields.get("linux")
		self.student_files = fields["student_files"]
		self.config = fields.get("config", [])
		self.modules = fields.get("modules", [])
		self.fields = fields
		self.tests_path = self.inside(fields["tests"], "tests")
		self.guest_dir = self.inside(fields["guest_dir"], "guest_dir") \
			if "guest_dir" in fields else None

	def inside(self, relative, field):
		path = (self.root / relative).resolve()
		if self.root.resolve() not in path.parents and path != self.root.resolve():
			raise DescriptorError(f"{self.descriptor}: \"{field}\": {relative!r} is outside"
					      " the assignment directory")
		if not path.exists():
			raise DescriptorError(f"{self.descriptor}: \"{field}\": {path} does not exist")
		return path

	def base_patch_path(self):
		if "base_patch" not in self.fields:
			return None
		return self.inside(self.fields["base_patch"], "base_patch")

	def base_patch_bytes(self):
		patch = self.base_patch_path()
		return patch.read_bytes() if patch else b""

	def skeleton_dir(self):
		if "skeleton_dir" not in self.fields:
			return None
		return self.inside(self.fields["skeleton_dir"], "skeleton_dir")

	def skeleton_bytes(self, path):
		"""The skeleton's version of student file PATH, or None if it has none."""
		skeleton = self.skeleton_dir()
		if skeleton is None or not (skeleton / path).is_file():
			return None
		return (skeleton / path).read_bytes()


def check_student_file(descriptor, path):
	if not isinstance(path, str) or not path or path.startswith("/") or \
	   ".." in Path(path).parts:
		raise DescriptorError(f"{descriptor}: \"student_files\": {path!r} is not a relative"
				      " kernel-tree path")


def check_module(descriptor, path):
	if not isinstance(path, str) or not path.endswith(".ko") or path.startswith("/") or \
	   ".." in Path(path).parts:
		raise DescriptorError(f"{descriptor}: \"modules\": {path!r} is not a relative"
				      " kernel-tree path of a .ko file")


def check_limits(descriptor, limits):
	for name, value in limits.items():
		if name not in DEFAULT_LIMITS:
			raise DescriptorError(f"{descriptor}: \"limits\": unknown limit {name!r}"
					      f" (known: {', '.join(DEFAULT_LIMITS)})")
		if type(value) is not int or value <= 0:
			raise DescriptorError(f"{descriptor}: \"limits\": {name} must be a positive"
					      " whole number")


def load_assignment(name_or_dir):
	candidates = [Path(name_or_dir), ASSIGNMENTS_DIR / name_or_dir,
		      ASSIGNMENTS_DIR / "autograder" / name_or_dir]
	candidate = next((c for c in candidates if (c / "assignment.json").exists()), candidates[1])
	descriptor = candidate / "assignment.json"
	if not descriptor.exists():
		raise DescriptorError(f"no assignment {name_or_dir!r}: {descriptor} does not exist")
	try:
		fields = json.loads(descriptor.read_text())
	except json.JSONDecodeError as error:
		raise DescriptorError(f"{descriptor}:{error.lineno}: not valid JSON: {error.msg}")
	if not isinstance(fields, dict):
		raise DescriptorError(f"{descriptor}: must hold a JSON object")
	for field, kind in REQUIRED_FIELDS.items():
		if not isinstance(fields.get(field), kind):
			raise DescriptorError(f"{descriptor}: \"{field}\" is required"
					      f" ({kind.__name__})")
	for field, kind in OPTIONAL_FIELDS.items():
		if field in fields and not isinstance(fields[field], kind):
			raise DescriptorError(f"{descriptor}: \"{field}\" must be a {kind.__name__}")
	unknown = set(fields) - set(REQUIRED_FIELDS) - set(OPTIONAL_FIELDS)
	if unknown:
		raise DescriptorError(f"{descriptor}: unknown field(s) {', '.join(sorted(unknown))}")
	if not fields["student_files"]:
		raise DescriptorError(f"{descriptor}: \"student_files\" is empty")
	for path in fields["student_files"]:
		check_student_file(descriptor, path)
	for path in fields.get("modules", []):
		check_module(descriptor, path)
	check_limits(descriptor, fields.get("limits", {}))
	return Assignment(descriptor, fields)
