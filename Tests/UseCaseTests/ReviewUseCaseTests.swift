import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

@Suite("Review use cases")
struct ReviewUseCaseTests {
    static let author = Fixtures.id(700)
    static let item = Fixtures.id(701)
    static let jpeg = UploadedFile(path: "/tmp/x", size: 2048, leadingBytes: [0xFF, 0xD8, 0xFF, 0xE0])

    static func useCase(_ store: MockReviewStore, media: MockMediaStorage? = MockMediaStorage()) -> ReviewUseCase {
        ReviewContainer(store: store, media: media, system: Fixtures.system).useCase
    }

    static func review(photos: Int = 0) -> Review {
        let photo = ReviewPhoto(
            id: Fixtures.id(1), reviewID: Fixtures.id(702), itemID: item, filename: "a.jpg", format: .jpeg, size: 1, createdAt: Fixtures.now
        )
        return Review(
            id: Fixtures.id(702), itemID: item, customerID: author, content: "Good", rating: 4,
            photos: Array(repeating: photo, count: photos), createdAt: Fixtures.now)
    }

    static func photoInput(by customer: UUID = author) -> ReviewAddPhotoInput {
        ReviewAddPhotoInput(customerID: customer, id: Fixtures.id(702))
    }

    @Test func postStoresTheCheckedReview() async throws {
        let store = MockReviewStore { $0.insert = { _ in } }
        let outcome = try await Self.useCase(store).post(
            ReviewPostInput(customerID: Self.author, itemID: Self.item, content: "Lovely mug", rating: 5))
        guard case .created(let review) = outcome else {
            Issue.record("not created: \(outcome)")
            return
        }
        #expect(review.id == Fixtures.fixedID && review.photos.isEmpty && review.createdAt == Fixtures.now)
        #expect(store.calls == [.insert(review)])
    }

    @Test func postRefusesBadContentAndRating() async throws {
        let unchecked = ReviewPostInput.Unchecked(customerID: Self.author, itemID: Self.item, content: "", rating: 6)
        #expect(throws: ValidationError.self) { try unchecked.validated() }
        let long = ReviewPostInput.Unchecked(
            customerID: Self.author, itemID: Self.item, content: String(repeating: "a", count: 2001), rating: 3)
        #expect(throws: ValidationError([FieldError("content", "must be 1 to 2000 characters")])) { try long.validated() }
        let store = MockReviewStore()
        await #expect(throws: ValidationError([FieldError("content", "must not be blank")])) {
            try await Self.useCase(store).post(ReviewPostInput(customerID: Self.author, itemID: Self.item, content: " \n ", rating: 3))
        }
        #expect(store.calls.isEmpty)
    }

    @Test func theStoresRefusalsAreOutcomes() async throws {
        let input = ReviewPostInput(customerID: Self.author, itemID: Self.item, content: "Again", rating: 3)
        let twice = MockReviewStore { $0.insert = { _ in throw ReviewError.alreadyReviewed(itemID: Self.item) } }
        #expect(try await Self.useCase(twice).post(input) == .alreadyReviewed)
        let gone = MockReviewStore { $0.insert = { _ in throw ReviewError.itemNotFound(Self.item) } }
        #expect(try await Self.useCase(gone).post(input) == .itemNotFound(itemID: Self.item))
    }

    @Test func listAnswersNotFoundForAnUnknownItemAndSummarises() async throws {
        let missing = MockReviewStore { $0.itemExists = { _ in false } }
        let input = ReviewListInput(itemID: Self.item, limit: 10, cursor: nil)
        #expect(try await Self.useCase(missing).list(input) == .itemNotFound(itemID: Self.item))
        let store = MockReviewStore {
            $0.itemExists = { _ in true }
            $0.reviews = { _, _, _ in [Self.review()] }
            $0.ratingSummary = { _ in RatingSummary(histogram: [4: 2, 5: 1]) }
        }
        guard case .list(let list) = try await Self.useCase(store).list(input) else {
            Issue.record("no list")
            return
        }
        #expect(list.data == [Self.review()] && list.nextCursor == nil)
        let summary = list.ratingSummary
        #expect(summary.count == 3 && summary.average == 4.33 && summary.histogram[1] == 0)
    }

    @Test func onlyTheAuthorAddsPhotosAndAtMostFiveAskedBeforeTheUpload() async throws {
        let store = MockReviewStore { $0.review = { _ in Self.review() } }
        #expect(try await Self.useCase(store).addPhotoBeforeUpload(Self.photoInput(by: Fixtures.id(999))) == .notAuthor)
        #expect(try await Self.useCase(store).addPhotoBeforeUpload(Self.photoInput()) == nil)
        let full = MockReviewStore { $0.review = { _ in Self.review(photos: ReviewRules.maxPhotos) } }
        #expect(try await Self.useCase(full).addPhotoBeforeUpload(Self.photoInput()) == .tooManyPhotos(limit: 5))
        let none = MockReviewStore { $0.review = { _ in nil } }
        #expect(try await Self.useCase(none).addPhotoBeforeUpload(Self.photoInput()) == .reviewNotFound(id: Fixtures.id(702)))
        // Asked again once the file is in: the review may have filled up while it was read.
        #expect(try await Self.useCase(full).addPhoto(Self.photoInput(), upload: Self.jpeg) == .tooManyPhotos(limit: 5))
    }

    @Test func theFileIsJudgedByItsBytesBeforeAnythingIsUploaded() async throws {
        let store = MockReviewStore { $0.review = { _ in Self.review() } }
        let media = MockMediaStorage()
        let useCase = Self.useCase(store, media: media)
        let text = UploadedFile(path: "/tmp/x", size: 5, leadingBytes: Array("hello".utf8))
        #expect(try await useCase.addPhoto(Self.photoInput(), upload: text) == .photoUnrecognized)
        let empty = UploadedFile(path: "/tmp/x", size: 0, leadingBytes: [])
        #expect(try await useCase.addPhoto(Self.photoInput(), upload: empty) == .photoEmpty)
        #expect(media.calls.isEmpty)
    }

    @Test func aPhotoIsUploadedUnderOurNameThenRecorded() async throws {
        let store = MockReviewStore {
            $0.review = { _ in Self.review() }
            $0.reservePhotoSlot = { _, _, _, _ in true }
            // The store answers the photo as recorded, with where it is published.
            $0.addPhoto = { photo, _ in
                ReviewPhoto(
                    id: photo.id, reviewID: photo.reviewID, itemID: photo.itemID, filename: photo.filename, format: photo.format,
                    size: photo.size, createdAt: photo.createdAt, url: "https://cdn.example/" + photo.filename)
            }
        }
        let media = MockMediaStorage { $0.upload = { _, name, _ in "stored-" + name } }
        guard case .created(let photo) = try await Self.useCase(store, media: media).addPhoto(Self.photoInput(), upload: Self.jpeg) else {
            Issue.record("not created")
            return
        }
        let name = "\(Fixtures.fixedID.uuidString.lowercased()).jpg"
        #expect(media.calls == [.upload(Self.jpeg, name, .jpeg)])
        #expect(photo.filename == "stored-" + name && photo.format == .jpeg && photo.size == 2048 && photo.itemID == Self.item)
        #expect(photo.url == "https://cdn.example/stored-" + name, "the photo as the store recorded it")
        // The place is taken before the upload, then filled.
        let expires = Fixtures.now + ReviewRules.photoSlotLifetime
        let recorded = ReviewPhoto(
            id: photo.id, reviewID: photo.reviewID, itemID: photo.itemID, filename: photo.filename, format: photo.format,
            size: photo.size, createdAt: photo.createdAt)
        #expect(store.calls.suffix(2) == [.reservePhotoSlot(photo.id, Fixtures.id(702), 5, expires), .addPhoto(recorded, photo.id)])
    }

    @Test func aFailingMediaAPIRecordsNothingAndFreesThePlace() async throws {
        let store = MockReviewStore {
            $0.review = { _ in Self.review() }
            $0.reservePhotoSlot = { _, _, _, _ in true }
            $0.releasePhotoSlot = { _ in }
        }
        let media = MockMediaStorage { $0.upload = { _, _, _ in throw ExternalServiceError(service: "media", reason: "down") } }
        await #expect(throws: ExternalServiceError.self) {
            try await Self.useCase(store, media: media).addPhoto(Self.photoInput(), upload: Self.jpeg)
        }
        #expect(!store.calls.contains { if case .addPhoto = $0 { return true } else { return false } })
        #expect(store.calls.last == .releasePhotoSlot(Fixtures.fixedID))
        await #expect(throws: ExternalServiceError.self) {
            try await Self.useCase(store, media: nil).addPhoto(Self.photoInput(), upload: Self.jpeg)
        }
    }

    @Test func concurrentUploadsFillingTheReviewAreRefusedBeforeUploading() async throws {
        let store = MockReviewStore {
            $0.review = { _ in Self.review(photos: 4) }
            $0.reservePhotoSlot = { _, _, _, _ in false }
        }
        let media = MockMediaStorage { $0.upload = { _, name, _ in name } }
        #expect(try await Self.useCase(store, media: media).addPhoto(Self.photoInput(), upload: Self.jpeg) == .tooManyPhotos(limit: 5))
        #expect(media.calls.isEmpty, "nothing reached the media API")
    }

    @Test func formatsAreRecognisedByTheirSignatures() {
        #expect(PhotoFormat.sniff([0xFF, 0xD8, 0xFF, 0xDB]) == .jpeg)
        #expect(PhotoFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(PhotoFormat.sniff(Array("GIF89a..".utf8)) == .gif)
        #expect(PhotoFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(PhotoFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(PhotoFormat.sniff(Array("<?php".utf8)) == nil)
        #expect(PhotoFormat.sniff([0xFF, 0xD8]) == nil)
    }
}
